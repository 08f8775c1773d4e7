local t = {}
t[0] = "zero"
t[-1] = "minus one"
t[1] = "one"
t[2] = "two"
print(#t, t[0], t[-1], t[-0.0])
local n = 0
for i, v in ipairs(t) do n = n + 1 end
print(n)
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
table.sort(keys)
print(table.concat(keys, " "))
print(table.concat({ 1, 2, 3 }, 0), table.concat({ "a", "b" }, 1.5))
return t
