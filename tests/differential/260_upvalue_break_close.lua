local fns = {}
for i = 1, 10 do
  local sq = i * i
  fns[#fns + 1] = function() return sq end
  if i == 3 then break end
end
local r = {}
for j, f in ipairs(fns) do r[j] = f() end
print(table.concat(r, " "))
local gs = {}
local i = 0
while true do
  i = i + 1
  local captured = i
  gs[i] = function() captured = captured + 100; return captured end
  if i >= 3 then break end
end
print(gs[1](), gs[1](), gs[2](), gs[3]())
local hs = {}
repeat
  local v = #hs + 1
  hs[#hs + 1] = function() return v end
until #hs == 3
print(hs[1](), hs[2](), hs[3]())
return r
