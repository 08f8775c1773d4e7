local latencies = { 120, 85, 300, 42, 97, 150, 88, 61, 240, 110 }
table.sort(latencies)
local n = #latencies
local median
if n % 2 == 0 then
  median = (latencies[n / 2] + latencies[n / 2 + 1]) / 2
else
  median = latencies[(n + 1) / 2]
end
local function pct(p)
  local idx = math.ceil(p / 100 * n)
  if idx < 1 then idx = 1 end
  return latencies[idx]
end
print("median", median)
print("p50", pct(50), "p90", pct(90), "p99", pct(99))
print("sorted", table.concat(latencies, " "))
return { median = median, p90 = pct(90), n = n }
