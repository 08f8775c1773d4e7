-- Simulated paged API: pages keyed by cursor.
local pages = {
  start = { items = { 1, 2, 3 }, next = "p2" },
  p2 = { items = { 4, 5, 6 }, next = "p3" },
  p3 = { items = { 7 }, next = nil },
}
local function fetch(cursor) return pages[cursor or "start"] end
local all, cursor, calls = {}, nil, 0
repeat
  local page = fetch(cursor)
  calls = calls + 1
  for _, it in ipairs(page.items) do all[#all + 1] = it end
  cursor = page.next
until cursor == nil
print("calls", calls, "items", #all, table.concat(all, ","))
return all
