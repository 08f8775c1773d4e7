local map = { { 1000, "M" }, { 900, "CM" }, { 500, "D" }, { 400, "CD" }, { 100, "C" }, { 90, "XC" },
  { 50, "L" }, { 40, "XL" }, { 10, "X" }, { 9, "IX" }, { 5, "V" }, { 4, "IV" }, { 1, "I" } }
local function roman(n)
  local out = {}
  for _, pair in ipairs(map) do
    while n >= pair[1] do out[#out + 1] = pair[2]; n = n - pair[1] end
  end
  return table.concat(out)
end
local r = {}
for _, n in ipairs({ 1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999 }) do
  r[#r + 1] = roman(n)
  print(n, r[#r])
end
return r
