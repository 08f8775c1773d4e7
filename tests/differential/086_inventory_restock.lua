local inventory = {
  { sku = "p1", stock = 4, min = 10, daily = 2 },
  { sku = "p2", stock = 50, min = 20, daily = 5 },
  { sku = "p3", stock = 0, min = 5, daily = 1 },
  { sku = "p4", stock = 12, min = 12, daily = 3 },
}
local orders = {}
for _, item in ipairs(inventory) do
  if item.stock <= item.min then
    local days = item.daily > 0 and item.stock / item.daily or math.huge
    local qty = item.min * 2 - item.stock
    orders[#orders + 1] = { sku = item.sku, qty = qty, days_left = days }
  end
end
table.sort(orders, function(a, b) return a.days_left < b.days_left end)
for _, o in ipairs(orders) do
  print(o.sku, o.qty, string.format("%.1f", o.days_left))
end
return orders
