// Async helpers calling tools, awaited in a loop.
async function fetchTotal(id) {
  const o = await tools.orders.get({ id });
  return o.total * 2;
}
async function sum(ids) {
  let s = 0;
  for (const id of ids) s += await fetchTotal(id);
  return s;
}
const s = await sum(["a", "bb", "ccc"]);
console.log("sum", s);
return s;
