local parts = {}
for i = 1, 5000 do parts[i] = string.format("%05d;", i) end
local s = table.concat(parts)
print(#s, s:sub(1, 12), s:sub(-12))
local r = string.rep("abc", 10000, "-")
print(#r, r:sub(1, 9), r:sub(-5))
local acc = {}
for i = 1, 100 do acc[#acc + 1] = string.rep(string.char(65 + i % 26), i % 7) end
local joined = table.concat(acc, "|")
print(#joined, joined:sub(1, 30))
local count = 0
local pos = 1
while true do
  local a = s:find("00;", pos, true)
  if not a then break end
  count = count + 1
  pos = a + 1
end
print("00; occurrences", count)
return #s + #r
