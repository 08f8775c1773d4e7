local cases = { "0x", "1e", "1e+", "0x1p", ".", "-.5", "+5", "++5", "0x.8", "1_000", "1,5", "  0x10  ",
  "\t12\n", "1e-2", "0b101", "00012", "-0", "-0.0", "0x8000000000000000", "1E2", "infinity", "0X1P-1" }
local out = {}
for i, s in ipairs(cases) do
  local v = tonumber(s)
  out[i] = string.format("%q=%s", s, v == nil and "nil" or (math.type(v) .. ":" .. tostring(v)))
end
print(table.concat(out, "\n"))
return out
