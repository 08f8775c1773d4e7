local out = {}
for i = 1, 6 do
  if i % 2 == 0 then goto continue end
  local sq = i * i
  local label = "n" .. i
  out[#out + 1] = label .. "=" .. sq
  ::continue::
end
print(table.concat(out, " "))
local rows = { { name = "a", qty = 0 }, { name = "b", qty = 2 }, { name = "c" }, { name = "d", qty = 5 } }
local total = 0
for _, r in ipairs(rows) do
  if not r.qty or r.qty == 0 then goto next end
  local weight = r.qty * 1.5
  total = total + weight
  ::next::
end
print(total)
local i = 0
while i < 5 do
  i = i + 1
  if i == 2 then goto skip end
  local msg = "i" .. i
  out[#out + 1] = msg
  ::skip::
end
print(table.concat(out, ","))
return out
