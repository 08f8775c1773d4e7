local vals = {1e15, 1e16, 2^53, 2^63, -2^63, 1e100, 123456789012, 0.1, 1/3, 100.0, -0.0, 0.0,
  1e-7, 123.456, 5e-324, 1.7976931348623157e308, 3.14159265358979, 1e14 + 0.5, 255 / 5, 2^24}
local out = {}
for i, v in ipairs(vals) do
  out[i] = tostring(v) .. "|" .. string.format("%.14g", v) .. "|" .. math.type(v)
  print(out[i])
end
print(1/0, -1/0, math.huge // 1, -(0/0) ~= -(0/0))
print(9007199254740993, 2^53 + 1, 0x7fffffffffffffff, 0xffffffffffffffff, 0x10000000000000000)
print(1e308 * 10, -1e308 * 10, 2^1024)
print(100 // 1, 100.5 // 1, 7 // 0.5)
print(tostring(3) == "3", tostring(3.0) == "3.0", 3 == 3.0, math.type(3 + 0.0))
print(10 / 2, 3 * 1.0, 2^2, 7 // 1, 7.0 // 1)
return out
