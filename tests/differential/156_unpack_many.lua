local t = {}
for i = 1, 200 do t[i] = i end
local function count(...) return select("#", ...) end
print(count(table.unpack(t)))
local function sum(...)
  local s = 0
  local args = { ... }
  for i = 1, #args do s = s + args[i] end
  return s
end
print(sum(table.unpack(t)))
print(math.max(table.unpack(t)), math.min(table.unpack(t, 50, 150)))
print(string.char(table.unpack({ 72, 101, 108, 108, 111 })))
local packed = table.pack(table.unpack(t, 190))
print(packed.n, packed[1], packed[11])
return packed.n
