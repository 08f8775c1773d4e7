local function snake_to_camel(s)
  local out, up = {}, false
  for i = 1, #s do
    local c = s:sub(i, i)
    if c == "_" then up = true
    elseif up then out[#out + 1] = c:upper(); up = false
    else out[#out + 1] = c end
  end
  return table.concat(out)
end
local function camel_to_snake(s)
  local out = {}
  for i = 1, #s do
    local c = s:sub(i, i)
    if c:upper() == c and c:lower() ~= c then
      if i > 1 then out[#out + 1] = "_" end
      out[#out + 1] = c:lower()
    else
      out[#out + 1] = c
    end
  end
  return table.concat(out)
end
local names = { "user_id", "created_at_ms", "x", "already" }
local r = {}
for _, n in ipairs(names) do
  local c = snake_to_camel(n)
  local back = camel_to_snake(c)
  print(n, c, back, back == n)
  r[#r + 1] = c
end
return r
