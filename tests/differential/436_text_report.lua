local rows = {
  {sku = "A-100", name = "Widget", qty = 12, price = 3.5},
  {sku = "B-220", name = "Gadget with a long name", qty = 0, price = 120},
  {sku = "C-003", name = "Doohickey", qty = 7, price = 0.99},
}
local lines = {}
lines[#lines + 1] = string.format("%-6s %-15s %5s %10s", "SKU", "NAME", "QTY", "TOTAL")
local grand = 0
for _, r in ipairs(rows) do
  local total = r.qty * r.price
  grand = grand + total
  local name = #r.name > 15 and r.name:sub(1, 12) .. "..." or r.name
  lines[#lines + 1] = string.format("%-6s %-15s %5d %10.2f", r.sku, name, r.qty, total)
end
lines[#lines + 1] = string.rep("-", 39)
lines[#lines + 1] = string.format("%-28s %10.2f", "GRAND TOTAL", grand)
for _, l in ipairs(lines) do print(l) end
print(grand, math.type(grand), 12 * 3.5, 0 * 120)
return lines
