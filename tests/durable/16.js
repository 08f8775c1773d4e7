// A rethrown tool error ends in a finally block that still mails.
let mailed = null;
async function risky() {
  try {
    return await tools.orders.get({ id: "bad" });
  } finally {
    mailed = await tools.mail.send({ note: "tried" });
  }
}
try {
  await risky();
  return "unreachable";
} catch (e) {
  return { caught: e.message, kind: e.kind ?? null, mailed: mailed.echo.note };
}
