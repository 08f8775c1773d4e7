local function trim(s)
  local i, j = 1, #s
  while i <= j and (s:byte(i) == 32 or s:byte(i) == 9) do i = i + 1 end
  while j >= i and (s:byte(j) == 32 or s:byte(j) == 9) do j = j - 1 end
  return s:sub(i, j)
end
local function lpad(s, n, c) return string.rep(c or " ", n - #s) .. s end
local function rpad(s, n, c) return s .. string.rep(c or " ", n - #s) end
local words = { "  hi  ", "\tx", "none", "   " }
local out = {}
for i, w in ipairs(words) do
  out[i] = "[" .. trim(w) .. "]"
  print(out[i], "[" .. lpad(trim(w), 6, ".") .. "]", "[" .. rpad(trim(w), 6) .. "]")
end
return out
