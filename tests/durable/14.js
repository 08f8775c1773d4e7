// Destructuring, spread, optional chaining, array methods over tool data.
const list = await tools.orders.list({});
const [{ id: firstId }, ...rest] = list;
const details = await Promise.all(rest.filter((o) => o.id !== "bad").map(({ id }) => tools.orders.get({ id })));
const summary = details.map(({ id, total, tags: [, second] }) => ({ id, total, second: second?.toUpperCase() ?? null }));
console.log(JSON.stringify(summary));
return { firstId, summary, none: details[5]?.id ?? "none" };
