local out = {}
for i = 1, 10 do
  if i % 3 == 0 then goto continue end
  if i > 8 then goto done end
  out[#out + 1] = i
  ::continue::
end
::done::
print(table.concat(out, ","))
local i = 1
::top::
if i <= 3 then
  out[#out + 1] = "t" .. i
  i = i + 1
  goto top
end
local fns = {}
do
  local k = 0
  ::again::
  local captured = k
  fns[#fns + 1] = function() return captured end
  k = k + 1
  if k < 3 then goto again end
end
print(fns[1](), fns[2](), fns[3]())
for _, row in ipairs({{1, 2, 0, 4}, {5, 0, 7}}) do
  for _, v in ipairs(row) do
    if v == 0 then goto next_row end
    out[#out + 1] = v
  end
  ::next_row::
end
print(table.concat(out, " "))
return out
