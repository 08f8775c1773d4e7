local data = {}
for i = 1, 40 do
  data[i] = { id = i, cat = ({ "alpha", "beta", "gamma" })[i % 3 + 1], value = (i * 37) % 101 / 4, ok = i % 7 ~= 0 }
end
local stats = {}
for _, d in ipairs(data) do
  if d.ok then
    local s = stats[d.cat] or { n = 0, sum = 0, max = -math.huge, ids = {} }
    s.n = s.n + 1
    s.sum = s.sum + d.value
    if d.value > s.max then s.max = d.value end
    s.ids[#s.ids + 1] = d.id
    stats[d.cat] = s
  end
end
local cats = {}
for k in pairs(stats) do cats[#cats + 1] = k end
table.sort(cats)
local result = {}
for _, c in ipairs(cats) do
  local s = stats[c]
  result[#result + 1] = { cat = c, n = s.n, avg = s.sum / s.n, max = s.max, first = s.ids[1], last = s.ids[#s.ids] }
  print(string.format("%-6s n=%2d avg=%7.3f max=%6.2f ids=%d..%d", c, s.n, s.sum / s.n, s.max, s.ids[1], s.ids[#s.ids]))
end
return result
