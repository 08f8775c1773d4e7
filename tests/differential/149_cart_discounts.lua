local cart = { { item = "book", price = 12.99, qty = 2 }, { item = "pen", price = 1.5, qty = 10 },
  { item = "bag", price = 49.0, qty = 1 } }
local coupons = { { code = "TEN", kind = "percent", value = 10 }, { code = "FIVE", kind = "fixed", value = 5 } }
local function subtotal(c)
  local s = 0
  for _, l in ipairs(c) do s = s + l.price * l.qty end
  return s
end
local base = subtotal(cart)
print(string.format("subtotal %.2f", base))
for _, cp in ipairs(coupons) do
  local after
  if cp.kind == "percent" then after = base * (1 - cp.value / 100) else after = base - cp.value end
  after = math.floor(after * 100 + 0.5) / 100
  print(cp.code, string.format("%.2f", after), after)
end
local bulk = 0
for _, l in ipairs(cart) do if l.qty >= 10 then bulk = bulk + l.price * l.qty * 0.2 end end
print("bulk discount", bulk)
return { base = base, bulk = bulk }
