local cases = {
  {"%d", 3.5}, {"%d", "x"}, {"%d", "10"}, {"%d", "3.0"}, {"%x", 2.5},
  {"%c", "a"}, {"%s"}, {"%d"}, {"%y", 1}, {"%", 1}, {"%5.2", 1},
  {"%100d", 1}, {"%.100f", 1}, {"%-+ #0d", 5}, {"%f", "abc"}, {"%f", "1e2"},
  {"%i", math.huge}, {"%d", 2^63}, {"%s %s", 1},
}
local res = {}
for i, c in ipairs(cases) do
  local ok, r = pcall(string.format, c[1], c[2])
  res[i] = tostring(ok) .. ": " .. tostring(r)
  print(i, res[i])
end
return res
