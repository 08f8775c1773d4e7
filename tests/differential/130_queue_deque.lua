local Q = { first = 1, last = 0, items = {} }
local function push(q, v) q.last = q.last + 1; q.items[q.last] = v end
local function pop(q)
  if q.first > q.last then return nil end
  local v = q.items[q.first]
  q.items[q.first] = nil
  q.first = q.first + 1
  return v
end
for i = 1, 5 do push(Q, i * i) end
local out = {}
out[#out + 1] = pop(Q)
out[#out + 1] = pop(Q)
push(Q, 100)
while true do
  local v = pop(Q)
  if v == nil then break end
  out[#out + 1] = v
end
print(table.concat(out, " "), Q.first, Q.last)
-- BFS over a small graph
local graph = { a = { "b", "c" }, b = { "d" }, c = { "d", "e" }, d = { "f" }, e = { "f" }, f = {} }
local dist, order = { a = 0 }, {}
local q = { first = 1, last = 0, items = {} }
push(q, "a")
while true do
  local n = pop(q)
  if not n then break end
  order[#order + 1] = n .. dist[n]
  for _, m in ipairs(graph[n]) do
    if dist[m] == nil then dist[m] = dist[n] + 1; push(q, m) end
  end
end
print(table.concat(order, " "))
return dist
