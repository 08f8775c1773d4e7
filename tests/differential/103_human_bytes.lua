local units = { "B", "KB", "MB", "GB", "TB" }
local function human(n)
  local i = 1
  local v = n
  while v >= 1024 and i < #units do
    v = v / 1024
    i = i + 1
  end
  if i == 1 then return string.format("%d %s", v, units[i]) end
  return string.format("%.1f %s", v, units[i])
end
local sizes = { 0, 1023, 1024, 1536, 1048576, 5368709120, 1099511627776 * 3, 123456789 }
local r = {}
for i, s in ipairs(sizes) do r[i] = human(s); print(s, r[i]) end
return r
