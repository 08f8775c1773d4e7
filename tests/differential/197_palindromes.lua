local function is_pal(s)
  local clean = {}
  for i = 1, #s do
    local b = s:lower():byte(i)
    if (b >= 97 and b <= 122) or (b >= 48 and b <= 57) then clean[#clean + 1] = string.char(b) end
  end
  local c = table.concat(clean)
  return c == c:reverse() and #c > 0
end
local tests = { "A man, a plan, a canal: Panama", "racecar", "hello", "", "No 'x' in Nixon", "12321", "12 31" }
local r = {}
for i, t in ipairs(tests) do r[i] = is_pal(t); print(string.format("%-32s %s", t, tostring(r[i]))) end
return r
