local tickets = {
  { id = 101, prio = "high", state = "open", age = 3, owner = "ann" },
  { id = 102, prio = "low", state = "closed", age = 10, owner = "bob" },
  { id = 103, prio = "medium", state = "open", age = 8, owner = nil },
  { id = 104, prio = "high", state = "open", age = 12, owner = "bob" },
  { id = 105, prio = "high", state = "closed", age = 1, owner = "ann" },
  { id = 106, prio = "low", state = "open", age = 30, owner = nil },
}
local rank = { high = 1, medium = 2, low = 3 }
local open, unassigned, byOwner = {}, 0, {}
for _, t in ipairs(tickets) do
  if t.state == "open" then
    open[#open + 1] = t
    if t.owner == nil then unassigned = unassigned + 1 end
    local o = t.owner or "(none)"
    byOwner[o] = (byOwner[o] or 0) + 1
  end
end
table.sort(open, function(a, b)
  if rank[a.prio] ~= rank[b.prio] then return rank[a.prio] < rank[b.prio] end
  if a.age ~= b.age then return a.age > b.age end
  return a.id < b.id
end)
local lines = {}
for i, t in ipairs(open) do
  lines[i] = string.format("#%d %-6s %2dd %s", t.id, t.prio, t.age, t.owner or "-")
  print(lines[i])
end
local stale = 0
for _, t in ipairs(open) do if t.age > 7 then stale = stale + 1 end end
print(string.format("open=%d unassigned=%d stale=%d (%.0f%%)", #open, unassigned, stale, stale / #open * 100))
return { open = #open, unassigned = unassigned, stale = stale, lines = lines, byOwner = byOwner }
