// Build a 1 MiB string from parts: template literals, number formatting and padding collected
// in an array and joined (plus a few separator joins). Checksum: "length/hash" of the result,
// where the hash samples one code unit every 997.
const TARGET = 1024 * 1024;
const parts = [];
let total = 0;
let i = 0;
while (total < TARGET) {
  i++;
  let piece;
  if (i % 3 === 0) {
    piece = `${i}:item${i}=${(i / 8).toFixed(2).padStart(5)};`;
  } else if (i % 3 === 1) {
    piece = `[${String(i).padStart(6, "0")}|${(i * 31).toString(16)}|${("k" + (i % 97)).padEnd(6)}]`;
  } else {
    piece = "row" + i + "," + ((i * 7) % 1000) + ";";
  }
  parts.push(piece);
  total += piece.length;
}

// A few joins with separators, as a program building CSV lines would.
const lines = [];
for (let j = 0; j < 100; j++) {
  lines.push(parts.slice(j, j + 10).join(","));
}
const header = lines.join("\n");

let s = parts.join("") + "-".repeat(16) + header.slice(0, 64);
let hash = 0;
for (let j = 0; j < s.length; j += 997) {
  hash = (hash * 131 + s.charCodeAt(j)) % 2147483647;
}
const checksum = `${s.length}/${hash}`;
console.log(checksum);
return checksum;
