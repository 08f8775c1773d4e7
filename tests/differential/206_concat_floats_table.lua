local t = {}
for i = 1, 12 do t[i] = i / 4 end
print(table.concat(t, " "))
local u = {}
for i = 1, 8 do u[i] = 10 ^ i end
print(table.concat(u, " "))
local w = {}
for i = 1, 6 do w[i] = 1 / (3 ^ i) end
print(table.concat(w, " "))
return t
