local function merge(a, b)
  local r, i, j = {}, 1, 1
  while i <= #a and j <= #b do
    if a[i] <= b[j] then r[#r + 1] = a[i]; i = i + 1 else r[#r + 1] = b[j]; j = j + 1 end
  end
  for k = i, #a do r[#r + 1] = a[k] end
  for k = j, #b do r[#r + 1] = b[k] end
  return r
end
local function mergesort(t)
  if #t <= 1 then return t end
  local mid = #t // 2
  return merge(mergesort({ table.unpack(t, 1, mid) }), mergesort({ table.unpack(t, mid + 1) }))
end
local data = { 38, 27, 43, 3, 9, 82, 10, 3, -5, 0, 2.5 }
local sorted = mergesort(data)
print(table.concat(sorted, " "))
print(table.concat(merge({ 1, 4, 9 }, { 2, 3, 10, 11 }), " "))
return sorted
