local function slugify(s)
  local out, dash = {}, false
  s = s:lower()
  for i = 1, #s do
    local b = s:byte(i)
    local alnum = (b >= 97 and b <= 122) or (b >= 48 and b <= 57)
    if alnum then
      if dash and #out > 0 then out[#out + 1] = "-" end
      out[#out + 1] = string.char(b)
      dash = false
    else
      dash = true
    end
  end
  return table.concat(out)
end
local titles = { "Hello, World!", "  Lua 5.4 -- Code Mode  ", "already-a-slug", "!!!", "A_B_C" }
local r = {}
for i, t in ipairs(titles) do r[i] = slugify(t); print(r[i]) end
return r
