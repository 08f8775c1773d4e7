local people = {
  {name = "ann", age = 31}, {name = "bob", age = 25}, {name = "cyd", age = 31},
  {name = "dee", age = 19}, {name = "eve", age = 25},
}
table.sort(people, function(a, b)
  if a.age ~= b.age then return a.age > b.age end
  return a.name < b.name
end)
local names = {}
for i, p in ipairs(people) do names[i] = p.name .. ":" .. p.age end
print(table.concat(names, " "))
local nums = {5, 2, 8, 1, 9, 3}
table.sort(nums, function(a, b) return a > b end)
print(table.concat(nums, ","))
local words = {"banana", "Apple", "cherry", "apple", "Banana"}
table.sort(words)
print(table.concat(words, ","))
table.sort(words, function(a, b) return a:lower() < b:lower() or (a:lower() == b:lower() and a < b) end)
print(table.concat(words, ","))
local mixed = {3, 1.5, 2, -1, 2.0}
table.sort(mixed)
local ms = {}
for i, v in ipairs(mixed) do ms[i] = tostring(v) end
print(table.concat(ms, ","))
print(pcall(table.sort, {3, "a", 1}))
print(pcall(table.sort, {3, 2, 1}, 5))
print(pcall(table.sort, {{}, {}}))
local ok, err = pcall(table.sort, {1, 2, nil, 4})
print(ok)
return nums, words
