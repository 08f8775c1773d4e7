print(tonumber("ff", 16), tonumber("FF", 16), tonumber("777", 8), tonumber("1010", 2))
print(tonumber("z", 36), tonumber("Zz", 36), tonumber("10", 36), tonumber("9", 8))
print(tonumber("  11  ", 2), tonumber("-11", 2), tonumber("", 10), tonumber("1.5", 10))
print(tonumber("0x10", 16), tonumber("10", 10), tonumber("12", 3), tonumber("abc", 16))
print(pcall(tonumber, "10", 1))
print(pcall(tonumber, "10", 37))
print(pcall(tonumber, 10, 16))
local bits = {}
for _, s in ipairs({ "0", "1", "11", "111", "1111" }) do bits[#bits + 1] = tonumber(s, 2) end
print(table.concat(bits, ","))
return bits
