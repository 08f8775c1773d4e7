local function title(s)
  local out, up = {}, true
  for i = 1, #s do
    local c = s:sub(i, i)
    if c == " " then
      up = true
      out[#out + 1] = c
    elseif up then
      out[#out + 1] = c:upper()
      up = false
    else
      out[#out + 1] = c:lower()
    end
  end
  return table.concat(out)
end
local names = { "hello world", "lUA iS fUN", "x", "" , "123 abc"}
local r = {}
for i, n in ipairs(names) do
  r[i] = title(n)
  print(string.format("%q -> %q", n, r[i]))
end
print(("MiXeD 123 !?"):upper(), ("MiXeD 123 !?"):lower())
return r
