local function split(s, sep)
  local parts, pos = {}, 1
  while true do
    local i, j = string.find(s, sep, pos, true)
    if not i then
      parts[#parts + 1] = s:sub(pos)
      break
    end
    parts[#parts + 1] = s:sub(pos, i - 1)
    pos = j + 1
  end
  return parts
end
local csv = "id,name,,age\n1,ann,,31"
local lines = split(csv, "\n")
local out = {}
for i, l in ipairs(lines) do
  local cols = split(l, ",")
  out[i] = cols
  print(i, #cols, table.concat(cols, "|"))
end
print(#split("a::b::c", "::"), #split("", ","))
return out
