local function range(n, step)
  step = step or 1
  local i = 0
  return function()
    i = i + step
    if i <= n then return i end
  end
end
local out = {}
for v in range(10, 3) do out[#out + 1] = v end
print(table.concat(out, ","))
local function chars(s)
  local i = 0
  return function()
    i = i + 1
    if i <= #s then return i, s:sub(i, i) end
  end
end
local parts = {}
for i, c in chars("abc") do parts[#parts + 1] = i .. c end
print(table.concat(parts, " "))
return out
