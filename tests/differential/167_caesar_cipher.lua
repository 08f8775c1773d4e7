local function shift(s, k)
  local out = {}
  for i = 1, #s do
    local b = s:byte(i)
    if b >= 65 and b <= 90 then b = (b - 65 + k) % 26 + 65
    elseif b >= 97 and b <= 122 then b = (b - 97 + k) % 26 + 97 end
    out[i] = string.char(b)
  end
  return table.concat(out)
end
local msg = "Hello, World! Code Mode 2024."
local enc = shift(msg, 3)
local dec = shift(enc, -3)
print(enc)
print(dec, dec == msg)
print(shift("xyz XYZ", 30))
local checksum = 0
for i = 1, #msg do checksum = (checksum * 31 + msg:byte(i)) & 0xFFFFFFFF end
print(string.format("%08x", checksum))
return enc
