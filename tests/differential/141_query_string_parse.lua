local function hexval(c)
  local b = c:byte()
  if b >= 48 and b <= 57 then return b - 48 end
  if b >= 97 and b <= 102 then return b - 87 end
  if b >= 65 and b <= 70 then return b - 55 end
end
local function unescape(s)
  local out, i = {}, 1
  while i <= #s do
    local c = s:sub(i, i)
    if c == "+" then out[#out + 1] = " "; i = i + 1
    elseif c == "%" and i + 2 <= #s then
      out[#out + 1] = string.char(hexval(s:sub(i + 1, i + 1)) * 16 + hexval(s:sub(i + 2, i + 2)))
      i = i + 3
    else out[#out + 1] = c; i = i + 1 end
  end
  return table.concat(out)
end
local function parse(qs)
  local params, pos = {}, 1
  while pos <= #qs do
    local amp = qs:find("&", pos, true) or (#qs + 1)
    local pair = qs:sub(pos, amp - 1)
    local eq = pair:find("=", 1, true)
    local k = unescape(eq and pair:sub(1, eq - 1) or pair)
    local v = eq and unescape(pair:sub(eq + 1)) or true
    if params[k] == nil then params[k] = v
    elseif type(params[k]) == "table" then table.insert(params[k], v)
    else params[k] = { params[k], v } end
    pos = amp + 1
  end
  return params
end
local p = parse("q=lua+code%20mode&page=2&tag=a&tag=b&flag&empty=&pct=100%25")
print(p.q, p.page, p.flag, "[" .. p.empty .. "]", p.pct, table.concat(p.tag, ","))
return p
