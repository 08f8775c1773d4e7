local total, per = 47, 10
local pages = (total + per - 1) // per
print("pages", pages, math.ceil(total / per), total % per)
local out = {}
for p = 1, pages do
  local first = (p - 1) * per + 1
  local last = math.min(p * per, total)
  out[p] = string.format("page %d: %d-%d (%d)", p, first, last, last - first + 1)
  print(out[p])
end
return out
