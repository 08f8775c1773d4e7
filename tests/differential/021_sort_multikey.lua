local people = {
  { last = "Smith", first = "Ann", age = 30 }, { last = "Jones", first = "Bob", age = 25 },
  { last = "Smith", first = "Al", age = 41 }, { last = "Brown", first = "Cy", age = 25 },
  { last = "Jones", first = "Abe", age = 25 }, { last = "Smith", first = "Ann", age = 22 },
}
table.sort(people, function(a, b)
  if a.last ~= b.last then return a.last < b.last end
  if a.first ~= b.first then return a.first < b.first end
  return a.age < b.age
end)
local out = {}
for i, p in ipairs(people) do
  out[i] = p.last .. ", " .. p.first .. " (" .. p.age .. ")"
  print(out[i])
end
return out
