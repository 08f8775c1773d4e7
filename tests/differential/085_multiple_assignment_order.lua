local a, b, c = 1, 2
print(a, b, c)
a, b = b, a
print(a, b)
local t = { 1, 2, 3 }
local i = 1
i, t[i] = i + 1, 20
print(i, t[1], t[2])
local x, y, z = (function() return 1, 2, 3 end)()
print(x, y, z)
local p, q = 1
print(p, q)
local m, n = 1, 2, 3
print(m, n)
local u = {}
u.a, u.b, u.c = "A", "B"
print(u.a, u.b, u.c)
local s1, s2 = "x", "y"
s1, s2 = s2 .. s1, s1 .. s2
print(s1, s2)
return { a, b, i, t[1] }
