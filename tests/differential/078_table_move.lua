local a = { 1, 2, 3, 4, 5 }
table.move(a, 2, 4, 1)
print(table.concat(a, ","))
a = { 1, 2, 3, 4, 5 }
table.move(a, 1, 3, 3)
print(table.concat(a, ","))
local b = table.move({ "x", "y" }, 1, 2, 4, { "a", "b", "c" })
print(table.concat(b, ","))
local c = table.move({ 1, 2, 3 }, 1, 0, 1, {})
print(#c)
return b
