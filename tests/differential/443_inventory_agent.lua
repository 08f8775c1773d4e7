local orders = {
  {id = "o1", items = {{sku = "a", n = 2, unit = 9.99}, {sku = "b", n = 1, unit = 25}}, status = "paid"},
  {id = "o2", items = {{sku = "a", n = 1, unit = 9.99}}, status = "refunded"},
  {id = "o3", items = {}, status = "paid"},
  {id = "o4", items = {{sku = "c", n = 3, unit = 0.1}}, status = "paid"},
}
local by_sku, revenue, skipped = {}, 0, {}
for _, o in ipairs(orders) do
  if o.status ~= "paid" then skipped[#skipped + 1] = o.id .. "(" .. o.status .. ")"
  elseif #o.items == 0 then skipped[#skipped + 1] = o.id .. "(empty)"
  else
    for _, it in ipairs(o.items) do
      local line = it.n * it.unit
      revenue = revenue + line
      local e = by_sku[it.sku] or {count = 0, total = 0}
      e.count = e.count + it.n
      e.total = e.total + line
      by_sku[it.sku] = e
    end
  end
end
local skus = {}
for k in pairs(by_sku) do skus[#skus + 1] = k end
table.sort(skus)
for _, k in ipairs(skus) do print(k, by_sku[k].count, by_sku[k].total, string.format("%.2f", by_sku[k].total)) end
print("revenue", revenue, string.format("%.2f", revenue), math.floor(revenue * 100 + 0.5) / 100)
print("skipped", table.concat(skipped, ", "))
return {revenue = revenue, skus = skus, by_sku = by_sku}
