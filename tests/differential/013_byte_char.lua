local s = "Lua!"
print(s:byte(1), s:byte(-1), s:byte(2, 3))
print(string.byte("ABC", 1, -1))
print(string.char(72, 105), string.char())
local codes = {}
for i = 1, #s do codes[i] = s:byte(i) end
print(table.concat(codes, ","))
local shifted = {}
for i = 1, #s do shifted[i] = string.char(s:byte(i) + 1) end
print(table.concat(shifted))
print(select("#", string.byte("", 1)), select("#", ("abc"):byte(10)))
return codes
