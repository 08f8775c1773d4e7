-- table.sort is not stable: add the original index as a tiebreak.
local tasks = {
  { name = "write", prio = 2 }, { name = "test", prio = 1 }, { name = "deploy", prio = 3 },
  { name = "review", prio = 2 }, { name = "plan", prio = 1 }, { name = "fix", prio = 2 },
  { name = "lint", prio = 1 }, { name = "docs", prio = 3 },
}
for i, t in ipairs(tasks) do t.idx = i end
table.sort(tasks, function(a, b)
  if a.prio ~= b.prio then return a.prio < b.prio end
  return a.idx < b.idx
end)
local names = {}
for i, t in ipairs(tasks) do names[i] = t.name end
print(table.concat(names, " "))
return names
