local n = 10 / 2
print(n, n .. "", tostring(n), string.format("%s", n), string.format("%d", n))
local m = 10 // 2
print(m, m .. "", tostring(m))
local t = { 1, 2.0, 3 / 1, 4 // 1, 2^2, 7 % 2.0 }
print(table.concat(t, " "))
local s = "" .. 1 .. 1.0 .. -0.0 .. 1e300 .. 2^-1074
print(s)
return t
