local items = {
  { name = "widget", price = 2.5, qty = 4 },
  { name = "gadget", price = 10, qty = 1 },
  { name = "doohickey", price = 0.75, qty = 12 },
}
local total, count = 0, 0
for _, it in ipairs(items) do
  total = total + it.price * it.qty
  count = count + it.qty
end
local avg = total / count
print("total", total)
print("count", count)
print("avg", avg)
print(string.format("avg %.3f", avg))
return { total = total, count = count, avg = avg }
