print(0xF0 & 0x3C, 0xF0 | 0x0F, 0xF0 ~ 0xFF, ~0, ~5)
print(1 << 4, 256 >> 4, 1 << 62, 1 << 63, 1 << 64, 1 >> -1, -1 >> 60)
print(3.0 & 1, 2^4 | 0, pcall(function() return "3" | 0 end))
print(pcall(function() return 1.5 & 1 end))
print(pcall(function() return "a" | 1 end))
print(pcall(function() return 2^64 | 0 end))
local flags = 0
local READ, WRITE, EXEC = 1, 2, 4
flags = flags | READ | EXEC
print(flags, flags & WRITE ~= 0, flags & EXEC ~= 0, flags & ~READ)
local function popcount(x)
  local c = 0
  while x ~= 0 do c = c + (x & 1); x = x >> 1 end
  return c
end
print(popcount(255), popcount(0x5555), popcount(-1))
return { flags, popcount(1023) }
