local out = {}
for x = 0, 1, 0.25 do out[#out + 1] = x end
print(table.concat(out, " "))
out = {}
for x = 1, 0, -0.5 do out[#out + 1] = x end
print(table.concat(out, " "))
out = {}
for i = 10, 1, -3 do out[#out + 1] = i end
print(table.concat(out, " "))
out = {}
for i = 1, 3 do out[#out + 1] = i end
for i = 3, 1 do out[#out + 1] = "never" end
print(table.concat(out, " "))
out = {}
for i = 1.0, 3 do out[#out + 1] = i end
print(table.concat(out, " "))
out = {}
for i = 0.1, 0.5, 0.1 do out[#out + 1] = string.format("%.1f", i) end
print(table.concat(out, " "), #out)
print(pcall(function() for i = 1, 10, 0 do end end))
local n = 0
for i = math.maxinteger - 2, math.maxinteger do n = n + 1 end
print(n)
n = 0
for i = math.mininteger, math.mininteger + 2 do n = n + 1 end
print(n)
return out
