local t = {}
table.insert(t, "a")
table.insert(t, "c")
table.insert(t, 2, "b")
table.insert(t, 1, "z")
print(#t, table.concat(t, ","))
print(table.remove(t), table.concat(t, ","))
print(table.remove(t, 1), table.concat(t, ","))
print(table.remove(t, #t + 1), #t)
print(table.remove({}), #t)
local e = {}
print(table.remove(e, 0), table.remove(e, #e))
print(pcall(table.insert, t, 10, "x"))
print(pcall(table.insert, t, 1, 2, 3))
table.insert(t, #t + 1, "end")
print(table.concat(t, ","))
return t
