// Closures: counters and accumulators made by factories, higher-order helpers (compose,
// partial application), and array callbacks (map/filter/reduce with arrows) over 10^5 items.
// Checksum: an integer combining every part.
function counter(start, step) {
  let n = start;
  return {
    next: () => (n += step),
    get: () => n,
  };
}
const compose = (f, g) => (x) => f(g(x));
const add = (a) => (b) => a + b;
const times = (a) => (b) => a * b;

let checksum = 0;
const counters = [];
for (let i = 0; i < 100; i++) {
  counters.push(counter(i, (i % 7) + 1));
}
for (let round = 0; round < 3000; round++) {
  for (let k = 0; k < counters.length; k += 10) {
    counters[k].next();
  }
}
for (const c of counters) {
  checksum = (checksum + c.get()) % 1000000007;
}

const f = compose(add(3), times(7));
for (let i = 0; i < 300000; i++) {
  checksum = (checksum + f(i % 1000)) % 1000000007;
}

const items = [];
for (let i = 0; i < 100000; i++) {
  items.push(i);
}
for (let round = 0; round < 5; round++) {
  const bias = round * 11;
  const total = items
    .map((x) => x * 2 + bias)
    .filter((x) => x % 3 !== 0)
    .reduce((acc, x) => (acc + x) % 1000000007, 0);
  checksum = (checksum * 31 + total) % 1000000007;
}
console.log(checksum);
return checksum;
