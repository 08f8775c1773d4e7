local map = {}
for i = 1, 3000 do
  local k = "key" .. (i % 100)
  map[k] = (map[k] or 0) + i
end
local count, total = 0, 0
for k, v in pairs(map) do count = count + 1; total = total + v end
print(count, total, map.key0, map["key" .. 99])
local s = ""
for i = 1, 300 do s = s .. string.char(65 + i % 26) end
local same = ("ABC"):lower() == "abc" and ("a" .. "bc") == "abc"
print(#s, s:sub(1, 10), same)
local t = {}
for i = 1, 1000 do t["k" .. i] = i end
for i = 1, 1000, 2 do t["k" .. i] = nil end
local left = 0
for _ in pairs(t) do left = left + 1 end
print(left, t.k2, t.k1, t.k1000)
return { count = count, left = left }
