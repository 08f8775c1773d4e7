local t = {}
t[1.0] = "one"
t[2] = "two"
t[2^53] = "big"
t[0.5] = "half"
t[-0.0] = "zero"
print(t[1], t[2.0], t[2^53 | 0], t[0.5], t[0], #t)
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
table.sort(keys)
for i, k in ipairs(keys) do keys[i] = math.type(k) .. ":" .. tostring(k) end
print(table.concat(keys, " "))
local c = { [1] = "a", [1.5] = "b" }
c[3 / 2] = "c"
print(c[1.5], c[1])
return t
