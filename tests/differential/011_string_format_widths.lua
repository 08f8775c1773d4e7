local rows = {
  { "apple", 3, 1.5 }, { "banana", 12, 0.25 }, { "cherry", 100, 12.125 },
}
local out = {}
out[#out + 1] = string.format("%-10s|%5s|%8s", "name", "qty", "price")
for _, r in ipairs(rows) do
  out[#out + 1] = string.format("%-10s|%5d|%8.2f", r[1], r[2], r[3])
end
out[#out + 1] = string.format("%05d|%+d|%x|%X|%o", 42, 7, 255, 255, 8)
out[#out + 1] = string.format("%10.3f|%-10.1f|%e", 3.14159, 2.75, 12345.678)
out[#out + 1] = string.format("%g|%g|%g|%g", 1e20, 0.0001, 100000, 1234567)
out[#out + 1] = string.format("%%|%c%c%c", 76, 117, 97)
out[#out + 1] = string.format("%s %s %s", 1, 2.0, true)
for _, l in ipairs(out) do print(l) end
return out
