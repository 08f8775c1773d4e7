local fns = {}
for i = 1, 5 do
  fns[i] = function() return i * i end
end
local out = {}
for i, f in ipairs(fns) do out[i] = f() end
print(table.concat(out, " "))
local gs = {}
local j = 1
while j <= 3 do
  local k = j
  gs[j] = function() k = k + 10; return k end
  j = j + 1
end
print(gs[1](), gs[1](), gs[2](), gs[3]())
return out
