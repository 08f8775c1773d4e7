local n, last = 0, nil
for x = 0, 1, 0.1 do n = n + 1; last = x end
print(n, last, string.format("%.17g", last))
local m = 0
for x = 1, 0, -0.1 do m = m + 1 end
print(m)
local k, acc = 0, 0
for x = 0.5, 5, 0.5 do k = k + 1; acc = acc + x end
print(k, acc)
local vals = {}
for x = -1, 1, 0.5 do vals[#vals + 1] = x end
print(table.concat(vals, " "))
return { n, m, k }
