-- Strings the standard library interns at run time (type names, empty results) held across
-- a pause: they are not the template's, and a snapshot carries their bytes.
local kinds = { type(1), type(nil), type(print), type(true), math.type(1), math.type(1.5) }
local empties = { string.rep("x", 0), ("abc"):sub(5), table.concat({}) }
local parts = {}
for i = 1, 20 do
  parts[#parts + 1] = string.rep("x", i % 17) .. i
end
local o = tools.orders.get({ id = "a" })
return { kinds = kinds, empty = #empties[1] + #empties[2] + #empties[3], n = #parts, last = parts[20], total = o.total }
