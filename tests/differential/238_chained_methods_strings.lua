local raw = "  Hello, Code Mode!  "
local function trim(s)
  local i, j = 1, #s
  while s:sub(i, i) == " " do i = i + 1 end
  while s:sub(j, j) == " " do j = j - 1 end
  return s:sub(i, j)
end
local r = trim(raw):lower():reverse():upper():sub(2, -2):rep(2, "/")
print(r, #r)
print(("%s-%s"):format("a", "b"):upper():rep(2))
print(("abc"):upper():byte(1, -1))
return r
