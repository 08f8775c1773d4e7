local s = "abcdef"
local cases = { { 1, 3 }, { -3, -1 }, { 0, 0 }, { 4, 100 }, { -100, 100 }, { 7, 7 }, { 3, 2 }, { -1, -1 },
  { 2, -2 }, { math.mininteger, 2 }, { 2, math.maxinteger } }
local out = {}
for i, c in ipairs(cases) do out[i] = "[" .. s:sub(c[1], c[2]) .. "]" end
print(table.concat(out, " "))
print(s:sub(3), s:sub(-2), s:sub(10), ("")["sub"]("", 1, 1) == "")
print(s:byte(0), s:byte(7), s:byte(-6), s:byte(2, 4))
return out
