local n = 0
for i = 1, math.huge do
  n = n + 1
  if i >= 5 then break end
end
print(n)
local c = 0
for i = 3, -math.huge, -1 do c = c + 1; if c == 4 then break end end
print(c)
local t = {}
for i = 1, 3.9 do t[#t + 1] = i end
print(table.concat(t, " "), math.type(t[1]))
t = {}
for i = -1, -3.5, -1 do t[#t + 1] = i end
print(table.concat(t, " "))
t = {}
for i = math.maxinteger - 5, math.maxinteger, 4 do t[#t + 1] = i end
print(table.concat(t, " "))
t = {}
for i = math.mininteger, math.mininteger + 10, 7 do t[#t + 1] = i end
print(table.concat(t, " "))
t = {}
for i = 1, 0.5 do t[#t + 1] = i end
print(#t)
return n + c
