local rows = {
  { q = "Q1", p = "A", v = 10 }, { q = "Q1", p = "B", v = 5 }, { q = "Q2", p = "A", v = 7 },
  { q = "Q3", p = "B", v = 3 }, { q = "Q2", p = "B", v = 8 }, { q = "Q1", p = "A", v = 1 },
}
local pivot, qs, ps, qseen, pseen = {}, {}, {}, {}, {}
for _, r in ipairs(rows) do
  if not qseen[r.q] then qseen[r.q] = true; qs[#qs + 1] = r.q end
  if not pseen[r.p] then pseen[r.p] = true; ps[#ps + 1] = r.p end
  pivot[r.q] = pivot[r.q] or {}
  pivot[r.q][r.p] = (pivot[r.q][r.p] or 0) + r.v
end
table.sort(qs); table.sort(ps)
print("q  " .. table.concat(ps, "   "))
for _, q in ipairs(qs) do
  local cells = {}
  for _, p in ipairs(ps) do cells[#cells + 1] = string.format("%3d", pivot[q][p] or 0) end
  print(q .. " " .. table.concat(cells, " "))
end
return pivot
