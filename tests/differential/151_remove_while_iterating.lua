local items = {}
for i = 1, 12 do items[i] = i end
for i = #items, 1, -1 do
  if items[i] % 3 == 0 then table.remove(items, i) end
end
print(#items, table.concat(items, ","))
local kept = {}
for _, v in ipairs(items) do if v % 2 == 1 then kept[#kept + 1] = v end end
print(table.concat(kept, ","))
local j = 1
for i = 1, #items do
  if items[i] > 5 then items[j] = items[i]; j = j + 1 end
end
for i = #items, j, -1 do items[i] = nil end
print(#items, table.concat(items, ","))
return items
