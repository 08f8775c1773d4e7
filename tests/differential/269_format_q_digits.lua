local samples = { "\0" .. "1", "\1" .. "23", "a\rb", "\0", "tab\t9", "\127x", "end\\", "multi\n\nline" }
local out = {}
for i, s in ipairs(samples) do
  out[i] = string.format("%q", s)
  print(i, out[i])
end
print(string.format("%q", 255), string.format("%q", -0.0), string.format("%q", 1e15), string.format("%q", 2^63))
print(string.format("%q", math.mininteger), string.format("%q", 0.5), string.format("%q", -1.25e-3))
return out
