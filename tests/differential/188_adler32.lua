local function adler32(s)
  local a, b = 1, 0
  for i = 1, #s do
    a = (a + s:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end
local function fnv1a(s)
  local h = 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 0x100000001b3
  end
  return h
end
local r = {}
for _, s in ipairs({ "", "a", "Wikipedia", "codemode", string.rep("xyz", 100) }) do
  local x = adler32(s)
  r[#r + 1] = string.format("%08x", x)
  print(#s, r[#r], string.format("%016x", fnv1a(s)), fnv1a(s))
end
return r
