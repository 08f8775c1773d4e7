// A generator suspended across tool calls.
function* ids() {
  yield "a";
  yield "bb";
  yield "ccc";
}
const gen = ids();
const seen = [];
for (let r = gen.next(); !r.done; r = gen.next()) {
  const o = await tools.orders.get({ id: r.value });
  seen.push(o.tags.join("/"));
}
return seen;
