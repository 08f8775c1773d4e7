local t = { "a", "b", "c" }
table.insert(t, 1, "start")
table.insert(t, #t + 1, "end")
table.insert(t, 3, "mid")
print(#t, table.concat(t, " "))
print(table.remove(t, 3), table.concat(t, " "))
print(table.remove(t, #t), table.remove(t, 1), table.concat(t, " "))
print(pcall(table.remove, t, 10))
print(pcall(table.insert, t, 0, "x"))
print(pcall(table.insert, t, #t + 2, "x"))
local q = {}
for i = 1, 5 do table.insert(q, 1, i) end
print(table.concat(q, ","))
while #q > 0 do table.remove(q) end
print(#q, table.remove(q))
return t
