local t = {}
local x = 12345
for i = 1, 200 do
  x = (x * 1103515245 + 12345) % 2147483648
  t[i] = x % 1000
end
table.sort(t)
local ok = true
for i = 2, #t do if t[i - 1] > t[i] then ok = false end end
print(ok, t[1], t[100], t[200])
local sum = 0
for _, v in ipairs(t) do sum = sum + v end
print("sum", sum)
return { first = t[1], last = t[#t], sum = sum }
