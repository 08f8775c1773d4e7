print(5 & 3, 5 | 3, 5 ~ 3, ~5, 1 << 4, 256 >> 4, -1 >> 60, 1 << 63, 1 << 64, 1 >> -1)
print(3.0 & 1, pcall(function() return "12" | 1 end))
print(0xFF ~ 0x0F, ~0, math.mininteger >> 63, 2^53 | 0, pcall(function() return 2^64 | 0 end))
print(pcall(function() return 1.5 & 1 end))
print(pcall(function() return "1.5" | 0 end))
print(pcall(function() return {} | 1 end))
local function bits(n) local t = {}; for i = 7, 0, -1 do t[#t + 1] = (n >> i) & 1 end; return table.concat(t) end
print(bits(5), bits(200), bits(255), bits(-1 & 0xFF))
local flags = {READ = 1, WRITE = 2, EXEC = 4}
local perm = flags.READ | flags.EXEC
print(perm & flags.WRITE ~= 0, perm & flags.EXEC ~= 0, perm ~ flags.READ)
print(string.format("%08x", 0xDEADBEEF & 0xFFFF0000), 0x7FFFFFFF + 1, (0xFFFFFFFF << 32) >> 32)
local h = 5381
for c in ("hello"):gmatch(".") do h = ((h << 5) + h + c:byte()) & 0xFFFFFFFF end
print(h)
return perm
