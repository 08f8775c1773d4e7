local out = {}
for i = 1, 0 do out[#out + 1] = "x" end
for i = 5, 5 do out[#out + 1] = i end
for i = -3, -1 do out[#out + 1] = i end
for i = 1, 2, 5 do out[#out + 1] = i end
for i = 3, 1, -1 do out[#out + 1] = i end
for i = 1, 3 do local i = i * 2; out[#out + 1] = i end
print(table.concat(out, " "))
local n = 0
for i = 1, 3 do n = n + 1; i = 100 end
print(n)
local f = {}
for i = 0.5, 2.5 do f[#f + 1] = i end
print(table.concat(f, " "))
local g = {}
for i = 1, 2.5 do g[#g + 1] = i end
print(table.concat(g, " "), math.type(g[1]))
local h = 0
for i = math.maxinteger - 1, math.maxinteger, 2 do h = h + 1 end
print(h)
print(pcall(function() for i = 1, "x" do end end))
print(pcall(function() for i = "1", 2 do end end))
return out
