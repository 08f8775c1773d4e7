local out = {}
local function add(x) out[#out + 1] = tostring(x) end
for i = math.maxinteger - 2, math.maxinteger do add(i) end
for i = math.mininteger + 2, math.mininteger, -1 do add(i) end
for i = 1, 3 do add(i) end
for i = 1.0, 3 do add(i) end
for i = 1, 2.5 do add(i) end
for i = 1, 2, 0.5 do add(i) end
for i = 0.1, 0.35, 0.1 do add(string.format("%.2f", i)) end
for i = 3, 1 do add("never") end
for i = 1, 0, -1 do add("d" .. i) end
for i = 10, 1, -4 do add(i) end
for i = 1, math.huge do if i > 3 then break end add("h" .. i) end
for i = -3, -1 do add(i) end
for i = 5, 5 do add("once") end
for i = 1, 3 do local j = i * 2; i = j; add(i) end
for i = 1, -math.huge do add("no") end
for i = math.maxinteger, math.maxinteger + 1.0 do add("x") break end
for i = 1, 3.9 do add(math.type(i)) end

print(table.concat(out, " "))
return out
