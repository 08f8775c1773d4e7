local pats = {"(", "%", "[a", "(()", "%b", "%bx", "%f", "%fx", "a)", "%g", "(%1)", "[%", "%z"}
local res = {}
for i, p in ipairs(pats) do
  local ok, err = pcall(string.find, "abc(x)", p)
  res[i] = p .. " -> " .. tostring(ok) .. " " .. tostring(err)
  print(res[i])
end
return res
