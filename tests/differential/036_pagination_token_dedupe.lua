local server = {
  ["1"] = { items = { "a", "b", "c" }, next = "2" },
  ["2"] = { items = { "c", "d" }, next = "3" },
  ["3"] = { items = { "d", "e", "a" }, next = "4" },
  ["4"] = { items = {}, next = nil },
}
local seen, order, token, pagesRead = {}, {}, "1", 0
while token do
  local page = server[token]
  pagesRead = pagesRead + 1
  for _, it in ipairs(page.items) do
    if not seen[it] then seen[it] = true; order[#order + 1] = it end
  end
  token = page.next
end
print(pagesRead, table.concat(order))
return order
