local t = {}
for i = 1, 600 do table.insert(t, 1, i) end
print(#t, t[1], t[600], t[300])
for i = 1, 200 do table.remove(t, 1) end
print(#t, t[1], t[#t])
for i = 1, 100 do table.remove(t, #t // 2) end
print(#t, t[1], t[150], t[#t])
local moved = table.move(t, 1, 10, 5)
print(#moved, moved[1], moved[5], moved[14])
local sum = 0
for _, v in ipairs(t) do sum = sum + v end
print(sum)
return sum
