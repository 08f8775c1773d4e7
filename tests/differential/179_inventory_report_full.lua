local warehouse = {
  { sku = "A100", name = "Bolt", cat = "hardware", qty = 1200, cost = 0.05 },
  { sku = "A200", name = "Nut", cat = "hardware", qty = 800, cost = 0.03 },
  { sku = "B100", name = "Hammer", cat = "tools", qty = 15, cost = 12.5 },
  { sku = "B200", name = "Saw", cat = "tools", qty = 0, cost = 22 },
  { sku = "C100", name = "Glue", cat = "supplies", qty = 48, cost = 3.75 },
  { sku = "C200", name = "Tape", cat = "supplies", qty = 60, cost = 2.2 },
}
local cats = {}
for _, item in ipairs(warehouse) do
  local c = cats[item.cat] or { items = 0, units = 0, value = 0, empty = {} }
  c.items = c.items + 1
  c.units = c.units + item.qty
  c.value = c.value + item.qty * item.cost
  if item.qty == 0 then c.empty[#c.empty + 1] = item.sku end
  cats[item.cat] = c
end
local names = {}
for k in pairs(cats) do names[#names + 1] = k end
table.sort(names, function(a, b) return cats[a].value > cats[b].value end)
local grand = 0
for _, n in ipairs(names) do
  local c = cats[n]
  grand = grand + c.value
  print(string.format("%-9s items=%d units=%5d value=%8.2f empty=%s", n, c.items, c.units, c.value,
    #c.empty > 0 and table.concat(c.empty, ",") or "-"))
end
print(string.format("grand total %.2f", grand))
return cats
