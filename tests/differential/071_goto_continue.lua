local out = {}
for i = 1, 10 do
  if i % 3 == 0 then goto continue end
  out[#out + 1] = i
  ::continue::
end
print(table.concat(out, ","))
local records = { { ok = true, v = 1 }, { ok = false, v = 2 }, { ok = true, v = 3 } }
local sum = 0
for _, r in ipairs(records) do
  if not r.ok then goto skip end
  do
    local doubled = r.v * 2
    sum = sum + doubled
  end
  ::skip::
end
print(sum)
local i = 0
::top::
i = i + 1
if i < 5 then goto top end
print(i)
return { out = out, sum = sum }
