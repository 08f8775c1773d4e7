// Promise.all over several tools: several calls in flight at once.
const ids = ["a", "b", "ab"];
const orders = await Promise.all(ids.map((id) => tools.orders.get({ id })));
console.log("fetched", orders.length);
return orders.map((o) => `${o.id}:${o.total}`).join(",");
