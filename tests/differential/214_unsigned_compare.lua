local vals = { 5, -1, 0, math.maxinteger, math.mininteger, 100, -100 }
table.sort(vals, math.ult)
local out = {}
for i, v in ipairs(vals) do out[i] = string.format("%x", v) end
print(table.concat(out, " "))
print(math.ult(math.maxinteger, math.mininteger), math.ult(-2, -1), math.ult(0, -1))
print(pcall(math.ult, 1.5, 2))
print(math.ult(1.0, 2))
return out
