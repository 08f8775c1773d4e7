local function lev(a, b)
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end
local candidates = { "orders.lookup", "orders.list", "users.lookup", "orders.cancel", "billing.lookup" }
local typo = "orders.lookpu"
local scored = {}
for _, c in ipairs(candidates) do scored[#scored + 1] = { c = c, d = lev(typo, c) } end
table.sort(scored, function(x, y) if x.d ~= y.d then return x.d < y.d end return x.c < y.c end)
for _, s in ipairs(scored) do print(s.d, s.c) end
print(lev("kitten", "sitting"), lev("", "abc"), lev("same", "same"))
return scored[1].c
