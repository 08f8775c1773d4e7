local vals = { 1e14, 1e15, 123456789012.5, 0.1, 1/3*3, 2/3, 1e-4, 1e-5, 5e-7, 1.5e300, -2.5e-300,
  100 * 1.1, 3.0 * 1.1, 255 / 256, 1 - 1e-16, 4503599627370496.5, 1e22, 1e21 }
local out = {}
for i, v in ipairs(vals) do out[i] = tostring(v) end
print(table.concat(out, "\n"))
return out
