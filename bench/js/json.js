// JSON: build 2·10^4 tool-like records, stringify them (compact and indented), parse the text
// back, and aggregate the parsed data. Checksum: lengths and an aggregate, joined with "/".
const records = [];
for (let i = 0; i < 20000; i++) {
  records.push({
    id: `r${i}`,
    index: i,
    active: i % 3 !== 0,
    score: (i * 37) % 1000 / 10,
    tags: ["t" + (i % 5), "g" + (i % 11)],
    owner: { name: "user" + (i % 97), level: i % 4 },
    note: i % 10 === 0 ? null : "note \"" + i + "\"\n",
  });
}
const compact = JSON.stringify(records);
const pretty = JSON.stringify(records.slice(0, 2000), null, 2);
const back = JSON.parse(compact);
let sum = 0;
let active = 0;
for (const r of back) {
  sum += r.owner.level + r.tags.length;
  if (r.active) {
    active++;
  }
}
const again = JSON.parse(pretty);
const checksum = `${compact.length}/${pretty.length}/${sum}/${active}/${again.length}`;
console.log(checksum);
return checksum;
