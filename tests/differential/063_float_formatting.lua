local vals = { 1e15, 1e16, 123456789012345.0, 0.1 + 0.2, 1 / 3, -0.0, 1 / 0, -1 / 0, 100.0,
  3.14159265358979, 1e-5, 123e-7, 2^63, 1e300 * 1e10, 5e-324, 0.5, -1.5e-10, 12345678901234567890 }
local out = {}
for i, v in ipairs(vals) do
  out[i] = tostring(v)
end
print(table.concat(out, " "))
print(0.1 + 0.2 == 0.3, 0.1 + 0.2 > 0.3, math.abs(0.1 + 0.2 - 0.3) < 1e-15)
print(string.format("%.17g", 0.1), string.format("%.20f", 0.1):sub(1, 12))
print(1e15 + 0.5, 2^52 + 0.5, 1e14 + 0.5)
print(-0.0 == 0.0, 1 / -0.0, tostring(0.0), tostring(-0.0))
return out
