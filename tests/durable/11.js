// Dates, RegExps, typed arrays, symbols and errors held across a call.
const when = new Date(Date.UTC(2024, 1, 29, 12, 0, 0));
const re = /(\w)(\d+)/g;
const bytes = new Uint8Array([1, 2, 3, 250]);
const tag = Symbol("tag");
const holder = { [tag]: "kept", err: new RangeError("too far") };
const o = await tools.orders.get({ id: "a1b22" });
const matches = [...`${o.id} c333`.matchAll(re)].map((m) => m[2]);
bytes[1] = o.total;
return {
  iso: when.toISOString(),
  matches,
  bytes: Array.from(bytes),
  sym: holder[tag],
  err: `${holder.err.name}: ${holder.err.message}`,
  lastIndex: re.lastIndex,
};
