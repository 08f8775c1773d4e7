local sales = {
  { region = "north", month = 1, amount = 100 },
  { region = "south", month = 1, amount = 250 },
  { region = "north", month = 2, amount = 175 },
  { region = "east", month = 2, amount = 90 },
  { region = "south", month = 3, amount = 40 },
  { region = "north", month = 3, amount = 10 },
}
local by = {}
for _, s in ipairs(sales) do
  local g = by[s.region]
  if not g then
    g = { region = s.region, total = 0, n = 0, months = {} }
    by[s.region] = g
  end
  g.total = g.total + s.amount
  g.n = g.n + 1
  table.insert(g.months, s.month)
end
local list = {}
for _, g in pairs(by) do list[#list + 1] = g end
table.sort(list, function(a, b) return a.total > b.total end)
for _, g in ipairs(list) do
  print(g.region, g.total, g.n, table.concat(g.months, "/"), g.total / g.n)
end
return list
