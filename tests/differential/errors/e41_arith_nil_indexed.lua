local data = {items = {1, 2}}
local total = 0
for i = 1, 3 do
  total = total + data.items[i]
end
print(total)
