local function page(n)
  if n > 6 then return nil end
  local t = {}
  for i = 1, n do t[i] = n * i end
  return t
end
local budget, spent, n, taken = 100, 0, 1, {}
while true do
  local p = page(n)
  if p == nil then break end
  local stop = false
  for _, cost in ipairs(p) do
    if spent + cost > budget then stop = true break end
    spent = spent + cost
    taken[#taken + 1] = cost
  end
  if stop then break end
  n = n + 1
end
print("spent", spent, "items", #taken, "last page", n)
return { spent = spent, taken = taken }
