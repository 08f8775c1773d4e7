local events = {
  { team = "red", player = "a", pts = 3 }, { team = "blue", player = "x", pts = 2 },
  { team = "red", player = "b", pts = 1 }, { team = "red", player = "a", pts = 2 },
  { team = "blue", player = "y", pts = 5 }, { team = "blue", player = "x", pts = 1 },
}
local teams = {}
for _, e in ipairs(events) do
  teams[e.team] = teams[e.team] or {}
  local t = teams[e.team]
  t[e.player] = (t[e.player] or 0) + e.pts
end
local names = {}
for k in pairs(teams) do names[#names + 1] = k end
table.sort(names)
for _, tn in ipairs(names) do
  local ps = {}
  for p in pairs(teams[tn]) do ps[#ps + 1] = p end
  table.sort(ps)
  local parts = {}
  for _, p in ipairs(ps) do parts[#parts + 1] = p .. "=" .. teams[tn][p] end
  print(tn, table.concat(parts, ", "))
end
return teams
