// Map and Set built from tool output, kept across calls.
const byId = new Map();
const tags = new Set();
for (const { id } of await tools.orders.list({})) {
  if (id === "bad") continue;
  const o = await tools.orders.get({ id });
  byId.set(id, o);
  o.tags.forEach((t) => tags.add(t));
}
byId.delete("a");
return { ids: [...byId.keys()], tags: [...tags].sort(), size: byId.size };
