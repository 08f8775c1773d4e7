-- Build 10^5 records and sort them with a Lua comparator (score descending, then name).
-- 7919 is coprime with 100000, so every name is distinct and the order is total: any correct
-- sort gives the same permutation. Checksum: a rolling hash of the ids in sorted order.
local N = 100000
local records = {}
for i = 1, N do
  records[i] = { id = i, name = "user" .. (i * 7919 % 100000), score = (i * 31337) % 1000 }
end

table.sort(records, function(a, b)
  if a.score ~= b.score then
    return a.score > b.score
  end
  return a.name < b.name
end)

local checksum = 0
for i = 1, N do
  checksum = (checksum * 31 + records[i].id) % 1000000007
end
print(checksum)
return checksum
