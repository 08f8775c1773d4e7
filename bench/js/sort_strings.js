// Sort 2·10^5 generated strings (ids such as "user-48271-17") with the default comparator
// (code-unit order), then a copy of their lengths as numbers (ToString order). Checksum: a
// rolling hash of the sorted strings' first and last characters and the numbers.
const N = 200000;
const names = [];
let x = 1;
for (let i = 0; i < N; i++) {
  x = (x * 48271) % 2147483647;
  names.push("user-" + (x % 100000) + "-" + (i % 97));
}
names.sort();
const nums = names.map((s, i) => (s.length * 7919 + i) % 100003);
nums.sort();
let checksum = 0;
for (let i = 0; i < N; i += 7) {
  const s = names[i];
  checksum = (checksum * 31 + s.charCodeAt(5) + s.charCodeAt(s.length - 1) + nums[i]) % 1000000007;
}
console.log(checksum);
return checksum;
