// Regex-heavy log parsing (issue 14): 10^5 access-log lines built in the program, each parsed
// with one named-group pattern, then aggregated (status counts, bytes per method, slowest
// path, a replace over the paths). Checksum: the aggregates, joined with "/".
const methods = ["GET", "POST", "PUT", "DELETE"];
const lines = [];
for (let i = 0; i < 100000; i++) {
  const ip = `10.${i % 256}.${(i >> 8) % 256}.${i % 7}`;
  const status = [200, 200, 201, 304, 404, 500][i % 6];
  const path = `/api/v${1 + (i % 3)}/users/${i % 1000}/orders?page=${i % 17}`;
  lines.push(`${ip} - - [07/Dec/2026:00:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")} +0000] "${methods[i % 4]} ${path} HTTP/1.1" ${status} ${(i * 131) % 50000} ${(i * 17) % 997}ms`);
}
const re = /^(?<ip>\d{1,3}(?:\.\d{1,3}){3}) \S+ \S+ \[(?<time>[^\]]+)\] "(?<method>[A-Z]+) (?<path>\S+) HTTP\/[\d.]+" (?<status>\d{3}) (?<bytes>\d+) (?<ms>\d+)ms$/;
const byStatus = {};
const bytesByMethod = {};
let slowest = { ms: -1, path: "" };
let bad = 0;
for (const line of lines) {
  const m = re.exec(line);
  if (!m) { bad++; continue; }
  const g = m.groups;
  byStatus[g.status] = (byStatus[g.status] || 0) + 1;
  bytesByMethod[g.method] = (bytesByMethod[g.method] || 0) + Number(g.bytes);
  const ms = Number(g.ms);
  if (ms > slowest.ms) slowest = { ms, path: g.path.replace(/\/\d+\//g, "/:id/").replace(/\?.*$/, "") };
}
const statuses = Object.keys(byStatus).sort().map((k) => `${k}:${byStatus[k]}`).join(",");
const bytes = methods.map((k) => bytesByMethod[k]).join(",");
const checksum = `${statuses}/${bytes}/${slowest.ms}:${slowest.path}/${bad}`;
console.log(checksum);
return checksum;
