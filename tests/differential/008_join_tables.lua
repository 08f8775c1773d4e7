local users = {
  { id = 1, name = "Ann" }, { id = 2, name = "Bob" }, { id = 3, name = "Cid" },
}
local orders = {
  { user_id = 2, total = 30 }, { user_id = 1, total = 12 }, { user_id = 2, total = 8 },
  { user_id = 4, total = 99 },
}
local byId = {}
for _, u in ipairs(users) do byId[u.id] = u end
local rows = {}
for i, o in ipairs(orders) do
  local u = byId[o.user_id]
  local name = u and u.name or "<unknown>"
  rows[i] = { name = name, total = o.total }
  print(i, name, o.total)
end
return rows
