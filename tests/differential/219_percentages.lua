local counts = { pass = 187, fail = 9, skip = 4 }
local total = counts.pass + counts.fail + counts.skip
local keys = { "pass", "fail", "skip" }
local pct = {}
local sum = 0
for _, k in ipairs(keys) do
  pct[k] = counts[k] * 100 / total
  sum = sum + pct[k]
  print(k, counts[k], string.format("%.1f%%", pct[k]), pct[k])
end
print("sum", sum, sum == 100)
local ratio = counts.pass / total
print(string.format("%.4f", ratio), math.floor(ratio * 1000) / 10)
return pct
