local intervals = { { 1, 3 }, { 8, 10 }, { 2, 6 }, { 15, 18 }, { 17, 20 }, { 6, 7 }, { 21, 21 } }
table.sort(intervals, function(a, b) if a[1] ~= b[1] then return a[1] < b[1] end return a[2] < b[2] end)
local merged = {}
for _, iv in ipairs(intervals) do
  local last = merged[#merged]
  if last and iv[1] <= last[2] then
    if iv[2] > last[2] then last[2] = iv[2] end
  else
    merged[#merged + 1] = { iv[1], iv[2] }
  end
end
local parts, covered = {}, 0
for i, m in ipairs(merged) do
  parts[i] = "[" .. m[1] .. "," .. m[2] .. "]"
  covered = covered + (m[2] - m[1])
end
print(table.concat(parts, " "), covered)
return merged
