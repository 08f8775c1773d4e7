local out = {}
for i = "1", 3 do out[#out + 1] = math.type(i) .. ":" .. tostring(i) end
for i = 1, "2" do out[#out + 1] = tostring(i) end
for i = 1, 2, "1" do out[#out + 1] = tostring(i) end
for i = "1.5", 3 do out[#out + 1] = tostring(i) end
for i = 1, "2.5" do out[#out + 1] = tostring(i) end
print(table.concat(out, " "))
print(pcall(function() for i = "x", 2 do end end))
print(pcall(function() for i = 1, "y" do end end))
print(pcall(function() for i = 1, 2, "z" do end end))
print(pcall(function() for i = 1, 2, 0.0 do end end))
return out
