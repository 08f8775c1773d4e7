local values = { 3, 7, 1, 9, 4, 4, 8, 2, 6, 5, 10, 0, 7, 7 }
local buckets = {}
for i = 0, 4 do buckets[i] = 0 end
for _, v in ipairs(values) do
  local b = v // 2
  if b > 4 then b = 4 end
  buckets[b] = buckets[b] + 1
end
local lines = {}
for i = 0, 4 do
  local label = string.format("%2d-%-2d", i * 2, i * 2 + 1)
  lines[#lines + 1] = label .. " | " .. string.rep("#", buckets[i]) .. " " .. buckets[i]
  print(lines[#lines])
end
return lines
