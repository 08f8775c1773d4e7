local products = {
  { sku = "A-1", name = "Pen", stock = 120, price = 1.2 },
  { sku = "B-22", name = "Notebook", stock = 8, price = 3.5 },
  { sku = "C-333", name = "Backpack", stock = 0, price = 45 },
}
local header = string.format("%-6s %-10s %6s %9s", "SKU", "Name", "Stock", "Value")
print(header)
print(string.rep("-", #header))
local total = 0
for _, p in ipairs(products) do
  local value = p.stock * p.price
  total = total + value
  local flag = p.stock == 0 and " (out)" or ""
  print(string.format("%-6s %-10s %6d %9.2f%s", p.sku, p.name, p.stock, value, flag))
end
print(string.format("%-6s %-10s %6s %9.2f", "", "TOTAL", "", total))
return total
