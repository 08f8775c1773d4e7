local remaining = { 3, 0, 2 }
local call = 0
local function fetch()
  call = call + 1
  local n = remaining[call] or 0
  local items = {}
  for i = 1, n do items[i] = call * 100 + i end
  return items, call < #remaining
end
local all, hasMore = {}, true
while hasMore do
  local items
  items, hasMore = fetch()
  table.move(items, 1, #items, #all + 1, all)
end
print(call, #all, table.concat(all, " "))
return all
