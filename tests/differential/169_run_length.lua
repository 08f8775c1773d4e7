local function rle(s)
  local out, i = {}, 1
  while i <= #s do
    local c = s:sub(i, i)
    local j = i
    while j + 1 <= #s and s:sub(j + 1, j + 1) == c do j = j + 1 end
    out[#out + 1] = (j - i + 1) .. c
    i = j + 1
  end
  return table.concat(out)
end
local function unrle(s)
  local out, num = {}, ""
  for i = 1, #s do
    local c = s:sub(i, i)
    if tonumber(c) then num = num .. c
    else out[#out + 1] = c:rep(tonumber(num)); num = "" end
  end
  return table.concat(out)
end
local r = {}
for _, s in ipairs({ "aaabccdddd", "abc", "", "zzzzzzzzzzzz" }) do
  local e = rle(s)
  r[#r + 1] = e
  print(s, e, unrle(e) == s)
end
return r
