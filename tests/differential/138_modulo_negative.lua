local out = {}
for _, a in ipairs({ 7, -7, 7.5, -7.5, 0 }) do
  for _, b in ipairs({ 3, -3, 2.5, -2.5 }) do
    out[#out + 1] = string.format("%g%%%g=%g", a, b, a % b)
  end
end
print(table.concat(out, " "))
print(-1 % math.huge, 1 % -math.huge, 1 % math.huge, -1 % -math.huge)
print(math.mininteger % -1, math.mininteger // -1, 5 % math.mininteger, -5 % math.mininteger)
return out
