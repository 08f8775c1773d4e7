local sorted = {}
for i = 1, 100 do sorted[i] = i * 3 end
local function bsearch(t, x)
  local lo, hi, steps = 1, #t, 0
  while lo <= hi do
    steps = steps + 1
    local mid = (lo + hi) // 2
    if t[mid] == x then return mid, steps
    elseif t[mid] < x then lo = mid + 1
    else hi = mid - 1 end
  end
  return nil, steps
end
local r = {}
for _, x in ipairs({ 3, 150, 300, 301, 0, 99 }) do
  local idx, steps = bsearch(sorted, x)
  print(x, idx, steps)
  r[#r + 1] = idx or -1
end
return r
