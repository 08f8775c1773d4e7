local s = "a\0b\0c"
print(#s, s:len(), s:byte(2), s:sub(3, 3), s:upper():byte(2))
local parts = {}
for i = 1, #s do parts[i] = s:byte(i) end
print(table.concat(parts, ","))
print(("\0"):rep(3):len(), ("x\0y"):reverse():byte(2))
local i = s:find("\0", 1, true)
print(i, s:find("b\0c", 1, true))
return s
