local visits = {
  { page = "/home", user = "u1" }, { page = "/home", user = "u2" }, { page = "/docs", user = "u1" },
  { page = "/home", user = "u1" }, { page = "/docs", user = "u3" }, { page = "/docs", user = "u1" },
  { page = "/pricing", user = "u2" }, { page = "/home", user = "u3" },
}
local uniq, total = {}, {}
for _, v in ipairs(visits) do
  uniq[v.page] = uniq[v.page] or {}
  uniq[v.page][v.user] = true
  total[v.page] = (total[v.page] or 0) + 1
end
local rows = {}
for page, users in pairs(uniq) do
  local n = 0
  for _ in pairs(users) do n = n + 1 end
  rows[#rows + 1] = { page = page, unique = n, total = total[page] }
end
table.sort(rows, function(a, b) if a.unique ~= b.unique then return a.unique > b.unique end return a.page < b.page end)
for _, r in ipairs(rows) do print(string.format("%-10s unique=%d total=%d", r.page, r.unique, r.total)) end
return rows
