local function parse(v)
  local parts, pos = {}, 1
  while true do
    local d = v:find(".", pos, true)
    parts[#parts + 1] = tonumber(v:sub(pos, d and d - 1 or #v))
    if not d then break end
    pos = d + 1
  end
  return parts
end
local function cmp(a, b)
  local pa, pb = parse(a), parse(b)
  for i = 1, math.max(#pa, #pb) do
    local x, y = pa[i] or 0, pb[i] or 0
    if x ~= y then return x < y and -1 or 1 end
  end
  return 0
end
local versions = { "1.10.0", "1.9", "1.9.1", "2.0", "1.2.10", "1.2.9", "0.9.99", "1.9.0" }
table.sort(versions, function(a, b)
  local c = cmp(a, b)
  if c ~= 0 then return c < 0 end
  return a < b
end)
print(table.concat(versions, " "))
print(cmp("1.0", "1.0.0"), cmp("1.2", "1.10"), cmp("3", "2.99"))
return versions
