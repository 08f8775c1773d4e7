local t = table.pack(1, nil, 3, nil)
print(t.n, t[1], t[2], t[3], t[4])
print(table.unpack({ 1, 2, 3 }))
print(table.unpack({ 1, 2, 3 }, 2))
print(table.unpack({ 1, 2, 3 }, 2, 5))
print(table.unpack({ "a", "b" }, 3))
print(select("#", table.unpack({}, 1, 3)))
local function f(...) return ... end
local packed = table.pack(f(table.unpack(t, 1, t.n)))
print(packed.n)
print(table.unpack({ 1, 2, 3 }, -1, 1))
return { n = t.n, first = t[1] }
