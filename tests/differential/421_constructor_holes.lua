-- `#` of constructor and table.pack results with nils: lua5.4 sizes the array part to the items
local function count(...) return select('#', ...), #{...} end
print(#{1, nil, 3}, #{1, nil, 3, nil}, #{nil, nil, 3}, #{1, 2, nil}, #{nil})
print(count(1, nil, 3))
print(count(nil, 2))
print(count("a", nil, nil, "d"))
local p = table.pack(1, nil, 3)
print(p.n, #p)
local p2 = table.pack(nil, nil, nil, 4, nil)
print(p2.n, #p2)
local args = {"x", nil, "z"}
local parts = {}
for i = 1, #args do parts[i] = tostring(args[i]) end
print(table.concat(parts, ","))
print(select('#', table.unpack({1, nil, 3})), select('#', table.unpack({"a", nil})))
local t = {[1] = "a", [2] = "b", "c"}
print(t[1], t[2], #t)
local u = {"a", "b", [3] = "c", [5] = "e"}
print(u[3], u[5])
local function ret() return 1, nil, 3 end
local r = {ret()}
print(#r, r[3])
local r2 = {ret(), ret()}
print(#r2, r2[2], r2[4])
return #{1, nil, 3}, p.n
