-- Count orders per status and print them in key order.
local orders = {
  { id = "o1", status = "shipped", total = 120 },
  { id = "o2", status = "pending", total = 35 },
  { id = "o3", status = "shipped", total = 80 },
  { id = "o4", status = "cancelled", total = 15 },
  { id = "o5", status = "pending", total = 60 },
  { id = "o6", status = "shipped", total = 42 },
}
local counts = {}
for _, o in ipairs(orders) do
  counts[o.status] = (counts[o.status] or 0) + 1
end
local keys = {}
for k in pairs(counts) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do
  print(k, counts[k])
end
return counts
