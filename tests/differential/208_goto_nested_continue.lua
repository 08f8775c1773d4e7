local result = {}
for i = 1, 5 do
  if i == 2 then goto next_i end
  for j = 1, 5 do
    if j % 2 == 0 then goto next_j end
    if i * j > 12 then goto next_i end
    result[#result + 1] = i .. "x" .. j
    ::next_j::
  end
  ::next_i::
end
print(table.concat(result, " "))
local k = 0
while k < 10 do
  k = k + 1
  if k % 4 ~= 0 then goto continue end
  result[#result + 1] = "k" .. k
  ::continue::
end
print(result[#result - 1], result[#result])
local n = 0
repeat
  n = n + 1
  if n == 3 then goto cont end
  result[#result + 1] = "n" .. n
  ::cont::
until n >= 4
print(table.concat(result, ","))
return result
