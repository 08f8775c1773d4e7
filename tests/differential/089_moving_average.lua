local series = { 10, 12, 11, 15, 20, 18, 17, 25, 30, 28 }
local window = 3
local avgs = {}
local sum = 0
for i, v in ipairs(series) do
  sum = sum + v
  if i > window then sum = sum - series[i - window] end
  if i >= window then
    avgs[#avgs + 1] = string.format("%.2f", sum / window)
  end
end
print(table.concat(avgs, " "))
local diffs = {}
for i = 2, #series do diffs[i - 1] = series[i] - series[i - 1] end
print(table.concat(diffs, " "))
return avgs
