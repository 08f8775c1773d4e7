local t = {}
table.insert(t, "a"); table.insert(t, "b"); table.insert(t, 1, "z"); table.insert(t, #t + 1, "end")
print(table.concat(t, ","), #t)
print(table.remove(t), table.remove(t, 1), table.concat(t, ","))
print(table.remove({}), select('#', table.remove({})))
local e = {}
print(table.remove(e, 0), table.remove(e, #e), #e)
local r = {1, 2, 3}
print(table.remove(r, #r + 1), #r)
for _, args in ipairs({ {5}, {-1}, {0} }) do
  local ok, err = pcall(table.insert, {1, 2}, args[1], "x")
  print(ok, err)
end
print(pcall(table.insert, {1}, 1, 2, 3))
print(pcall(table.insert, {1}))
print(pcall(table.remove, {1, 2, 3}, 7))
print(pcall(table.insert, nil, 1))
print(pcall(table.insert, {}, "2", "v"))
local q = {10, 20, 30, 40, 50}
while #q > 0 do local v = table.remove(q, 1); if v == 30 then break end end
print(table.concat(q, " "))
return t, q
