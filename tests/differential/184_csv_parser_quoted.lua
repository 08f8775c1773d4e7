local function parse_line(line)
  local fields, i, n = {}, 1, #line
  while i <= n + 1 do
    local c = line:sub(i, i)
    if c == '"' then
      local buf = {}
      i = i + 1
      while i <= n do
        local ch = line:sub(i, i)
        if ch == '"' then
          if line:sub(i + 1, i + 1) == '"' then buf[#buf + 1] = '"'; i = i + 2
          else i = i + 1 break end
        else buf[#buf + 1] = ch; i = i + 1 end
      end
      fields[#fields + 1] = table.concat(buf)
      i = i + 1
    else
      local j = line:find(",", i, true) or (n + 1)
      fields[#fields + 1] = line:sub(i, j - 1)
      i = j + 1
    end
  end
  return fields
end
local lines = { 'a,b,c', '"x, y",2,"say ""hi"""', ',,', '"",z', 'single' }
local out = {}
for i, l in ipairs(lines) do
  local f = parse_line(l)
  out[i] = f
  print(#f, table.concat(f, "|"))
end
return out
