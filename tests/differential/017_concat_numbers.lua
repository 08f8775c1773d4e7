local parts = {}
parts[#parts + 1] = 10 .. ""
parts[#parts + 1] = 1.5 .. "x"
parts[#parts + 1] = 2^53 .. ""
parts[#parts + 1] = 10 // 3 .. "|" .. 10 / 2
parts[#parts + 1] = -0.0 .. ""
parts[#parts + 1] = 1e100 .. ""
parts[#parts + 1] = math.mininteger .. ""
parts[#parts + 1] = 3 .. 4
for _, p in ipairs(parts) do print(p) end
print(table.concat({ 1, 2.5, "x", 3 }, "-"))
return parts
