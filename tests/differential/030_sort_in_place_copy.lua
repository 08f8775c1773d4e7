local original = { 9, 4, 7, 1 }
local copy = {}
for i, v in ipairs(original) do copy[i] = v end
table.sort(copy)
print(table.concat(original, ","), table.concat(copy, ","))
local moved = table.move(original, 1, #original, 1, {})
table.sort(moved, function(a, b) return a > b end)
print(table.concat(moved, ","))
return { original = original, copy = copy, moved = moved }
