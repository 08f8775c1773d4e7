local t = { 3, 1, 2 }
local ok, e = pcall(table.sort, t, function(a, b) error("cmp failed on " .. a .. "," .. b, 0) end)
print(ok, e:sub(1, 14))
local calls = 0
local u = { 5, 4, 3, 2, 1 }
table.sort(u, function(a, b) calls = calls + 1; return a < b end)
print(table.concat(u, ","), calls > 0)
local recs = { { n = "b" }, { n = "a" }, { n = "c" } }
table.sort(recs, function(x, y) return x.n > y.n end)
print(recs[1].n, recs[2].n, recs[3].n)
print(pcall(table.sort, { 1, 2 }, 42))
return u
