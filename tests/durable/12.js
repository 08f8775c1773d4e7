// Un-awaited calls started first, awaited later; queueMicrotask and then-chains.
const p1 = tools.orders.get({ id: "a" });
const p2 = tools.orders.get({ id: "bb" }).then((o) => o.total + 1);
const order = [];
queueMicrotask(() => order.push("micro"));
Promise.resolve().then(() => order.push("then"));
const a = await p1;
order.push("a");
const b = await p2;
order.push("b");
return { a: a.total, b, order };
