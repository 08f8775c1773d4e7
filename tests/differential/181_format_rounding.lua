local vals = { 0.005, 0.015, 0.025, 1.005, 2.675, 1.45, -1.45, 123.456, 0.1 + 0.2, 1e-10, 99.995 }
for _, v in ipairs(vals) do
  print(string.format("%.2f %.1f %.0f %.3e %g", v, v, v, v, v))
end
local function round(x, n)
  local m = 10 ^ (n or 0)
  return math.floor(x * m + 0.5) / m
end
print(round(2.5), round(3.14159, 2), round(-2.5), round(1234.5678, -2))
return { round(2.675, 2), string.format("%.2f", 2.675) }
