local function bin(n, width)
  local bits = {}
  for i = width - 1, 0, -1 do bits[#bits + 1] = (n >> i) & 1 end
  return table.concat(bits)
end
local r = {}
for _, n in ipairs({ 0, 1, 5, 255, 256, -1, 1 << 62 }) do
  r[#r + 1] = bin(n, 16)
  print(string.format("%20d", n), r[#r], string.format("%x", n))
end
local function from_bin(s)
  local n = 0
  for i = 1, #s do n = n * 2 + (s:byte(i) - 48) end
  return n
end
print(from_bin("101101"), tonumber("101101", 2), from_bin(bin(12345, 16)))
return r
