// Build 2·10^5 records and sort them with a comparator (score descending, then name).
// 7919 is coprime with 200000, so every name is distinct and the order is total: any correct
// sort gives the same permutation. Checksum: a rolling hash of the ids in sorted order.
const N = 200000;
const records = [];
for (let i = 1; i <= N; i++) {
  records.push({ id: i, name: "user" + ((i * 7919) % N), score: (i * 31337) % 1000 });
}

records.sort((a, b) => {
  if (a.score !== b.score) {
    return b.score - a.score;
  }
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
});

let checksum = 0;
for (let i = 0; i < N; i++) {
  checksum = (checksum * 31 + records[i].id) % 1000000007;
}
console.log(checksum);
return checksum;
