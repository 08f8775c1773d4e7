local s = "price: $5.00 (approx.) [tag] 100% a+b*c ^start end$"
local needles = { "$5.00", "(approx.)", "[tag]", "100%", "a+b*c", "^start", "end$", ".", "%" }
local out = {}
for i, n in ipairs(needles) do
  local a, b = s:find(n, 1, true)
  out[i] = tostring(a) .. "-" .. tostring(b)
end
print(table.concat(out, " "))
print(s:find("$", 20, true), ("a.b.c"):find(".", 3, true), ("aaa"):find("aa", 2, true))
print(string.find("abc", "c", -1, true), string.find("abc", "a", -10, true), string.find("abc", "x", 1, true))
return out
