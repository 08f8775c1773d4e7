local lines = {
  { desc = "Consulting", hours = 12.5, rate = 90 },
  { desc = "Support", hours = 3, rate = 60 },
  { desc = "Travel", hours = 0, rate = 0, flat = 145.2 },
}
local subtotal = 0
for _, l in ipairs(lines) do
  local amount = l.flat or (l.hours * l.rate)
  l.amount = amount
  subtotal = subtotal + amount
  print(string.format("%-12s %8.2f", l.desc, amount))
end
local tax = math.floor(subtotal * 0.19 * 100 + 0.5) / 100
local total = subtotal + tax
print(string.format("%-12s %8.2f", "Subtotal", subtotal))
print(string.format("%-12s %8.2f", "Tax 19%", tax))
print(string.format("%-12s %8.2f", "Total", total))
return { subtotal = subtotal, tax = tax, total = total }
