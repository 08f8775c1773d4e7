// Closures counting across calls.
function counter() {
  let n = 0;
  return { inc: (k = 1) => (n += k), get: () => n };
}
const c = counter();
const orders = await tools.orders.list({});
for (const o of orders) {
  c.inc(o.id.length);
  await tools.mail.send({ to: o.id, n: c.get() });
}
return c.get();
