local events = { "click", "view", "click", "purchase", "view", "view", "click", "view", "refund" }
local c = {}
for _, e in ipairs(events) do c[e] = (c[e] or 0) + 1 end
local total = 0
for _, n in pairs(c) do total = total + n end
local order = { "view", "click", "purchase", "refund", "other" }
for _, k in ipairs(order) do
  local n = c[k] or 0
  print(string.format("%-9s %2d %5.1f%%", k, n, n / total * 100))
end
local conv = (c.purchase or 0) / c.view
print(string.format("conversion %.3f", conv), conv)
return c
