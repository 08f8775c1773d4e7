local s = "Hello, World! 123"
local codes = {s:byte(1, -1)}
print(#codes, codes[1], codes[#codes])
print(string.char(table.unpack(codes)) == s)
local shifted = {}
for i = 1, #s do
  local c = s:byte(i)
  if c >= 65 and c <= 90 then c = c + 32 elseif c >= 97 and c <= 122 then c = c - 32 end
  shifted[i] = string.char(c)
end
print(table.concat(shifted))
print(("abc"):upper():lower():upper(), ("ÄÖ"):lower(), ("äö"):upper())
local function capitalize(w) return w:sub(1, 1):upper() .. w:sub(2):lower() end
local t = {}
for w in ("hELLO wORLD foo"):gmatch("%a+") do t[#t + 1] = capitalize(w) end
print(table.concat(t, " "))
print(("x"):byte(0), ("x"):byte(2), ("xyz"):byte(-2, -1))
return codes
