local s = "abc ÄÖÜ äöü 123 xyz"
print(s:upper(), s:lower(), #s:upper() == #s)
print(("MiXeD"):lower(), ("MiXeD"):upper(), ("ß"):upper() == "ß")
local r = {}
for _, w in ipairs({ "hello", "WORLD", "MiXeD", "" }) do r[#r + 1] = w:sub(1, 1):upper() .. w:sub(2):lower() end
print(table.concat(r, ","))
return r
