// JSON round trips and string building.
const o = await tools.orders.get({ id: "xyz" });
const text = JSON.stringify(o);
let report = "";
for (const [k, v] of Object.entries(JSON.parse(text))) report += `${k}=${JSON.stringify(v)};`;
const sent = await tools.mail.send({ body: report });
return { report, echoed: sent.echo.body === report, len: text.length };
