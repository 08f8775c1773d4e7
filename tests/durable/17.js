// A log-heavy loop with string building and a WeakMap of cached objects.
const cache = new WeakMap();
const keys = [];
let line = "";
for (let i = 0; i < 5; i++) {
  const key = { i };
  keys.push(key);
  const o = await tools.orders.get({ id: "x".repeat(i + 1) });
  cache.set(key, o.total);
  line += o.total + (i < 4 ? "," : "");
  console.log("step", i, o.total);
}
return { line, cached: keys.map((k) => cache.get(k)) };
