local api = {
  { data = { users = { { n = "a", tags = { "x" } }, { n = "b", tags = {} } } }, cursor = 2 },
  { data = { users = { { n = "c", tags = { "x", "y" } } } }, cursor = 3 },
  { data = { users = {} }, cursor = nil },
}
local tagCount, users, c = {}, {}, 1
while c do
  local resp = api[c]
  for _, u in ipairs(resp.data.users) do
    users[#users + 1] = u.n
    for _, t in ipairs(u.tags) do tagCount[t] = (tagCount[t] or 0) + 1 end
  end
  c = resp.cursor
end
print(table.concat(users, ","), tagCount.x, tagCount.y, tagCount.z)
return { users = users, tags = tagCount }
