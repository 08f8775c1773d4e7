local nums = { 8, 3, 11, 7, 2, 15, 4, 6, 9 }
local target = 13
local seen, pairs_found = {}, {}
for i, n in ipairs(nums) do
  local need = target - n
  if seen[need] then
    pairs_found[#pairs_found + 1] = string.format("(%d,%d)@%d,%d", need, n, seen[need], i)
  end
  seen[n] = i
end
print(#pairs_found, table.concat(pairs_found, " "))
return pairs_found
