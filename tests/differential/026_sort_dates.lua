local entries = {
  { date = "2024-03-01", v = 1 }, { date = "2023-12-31", v = 2 }, { date = "2024-01-15", v = 3 },
  { date = "2024-03-01", v = 0 }, { date = "2022-07-04", v = 9 },
}
local function parse(d)
  return tonumber(d:sub(1, 4)), tonumber(d:sub(6, 7)), tonumber(d:sub(9, 10))
end
table.sort(entries, function(a, b)
  local ya, ma, da = parse(a.date)
  local yb, mb, db = parse(b.date)
  if ya ~= yb then return ya < yb end
  if ma ~= mb then return ma < mb end
  if da ~= db then return da < db end
  return a.v < b.v
end)
local out = {}
for i, e in ipairs(entries) do
  local y, m, d = parse(e.date)
  out[i] = string.format("%04d/%02d/%02d:%d", y, m, d, e.v)
end
print(table.concat(out, " "))
return out
