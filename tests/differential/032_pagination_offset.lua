local data = {}
for i = 1, 23 do data[i] = { id = i, name = "item" .. i } end
local function list(offset, limit)
  local page = {}
  for i = offset + 1, math.min(offset + limit, #data) do page[#page + 1] = data[i] end
  return { items = page, total = #data }
end
local offset, limit, collected, pages = 0, 5, {}, 0
while true do
  local res = list(offset, limit)
  pages = pages + 1
  for _, it in ipairs(res.items) do collected[#collected + 1] = it.id end
  offset = offset + #res.items
  if #res.items < limit or offset >= res.total then break end
end
print(pages, #collected, collected[1], collected[#collected])
return { pages = pages, count = #collected }
