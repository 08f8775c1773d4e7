// Math.random drawn before and after a call: a seeded run gives the same numbers.
const before = Math.random();
const o = await tools.orders.get({ id: "a" });
const after = Math.random();
const uuid = crypto.randomUUID();
return { before, after, uuid, total: o.total };
