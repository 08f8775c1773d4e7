local function counter(start)
  local n = start
  return function(d) n = n + d; return n end
end
local live = {}
for i = 1, 5000 do
  local c = counter(i)
  c(1)
  local s = string.rep("x", i % 50) .. i
  if i % 500 == 0 then live[#live + 1] = { c = c, s = s } end
end
local out = {}
for i, e in ipairs(live) do out[i] = e.c(10) .. "/" .. #e.s end
print(table.concat(out, " "))
local big = {}
for i = 1, 3000 do big[i] = tostring(i) .. "," end
local joined = table.concat(big)
big = nil
local parts = {}
for r = 1, 50 do parts[#parts + 1] = joined:sub(r, r + 3) end
print(#joined, parts[1], parts[50])
return out
