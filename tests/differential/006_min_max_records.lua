local temps = { 12.5, -3, 7, 22.25, 0, -8.5, 15 }
local mn, mx = math.huge, -math.huge
local mni, mxi
for i, t in ipairs(temps) do
  if t < mn then mn, mni = t, i end
  if t > mx then mx, mxi = t, i end
end
print("min", mn, mni)
print("max", mx, mxi)
print("range", mx - mn)
print(math.max(table.unpack(temps)), math.min(table.unpack(temps)))
return { min = mn, max = mx, range = mx - mn }
