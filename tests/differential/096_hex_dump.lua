local data = "Hello\0World\n\t\255!"
local lines = {}
for off = 1, #data, 8 do
  local hex, asc = {}, {}
  for i = off, math.min(off + 7, #data) do
    local b = data:byte(i)
    hex[#hex + 1] = string.format("%02x", b)
    asc[#asc + 1] = (b >= 32 and b < 127) and string.char(b) or "."
  end
  lines[#lines + 1] = string.format("%04x  %-24s %s", off - 1, table.concat(hex, " "), table.concat(asc))
  print(lines[#lines])
end
print(#data)
return lines
