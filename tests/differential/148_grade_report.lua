local students = {
  { name = "Ana", scores = { 90, 85, 77 } }, { name = "Ben", scores = { 60, 70, 65 } },
  { name = "Cleo", scores = { 100, 95, 98 } }, { name = "Dan", scores = { 40, 55 } },
  { name = "Eve", scores = {} },
}
local function grade(avg)
  if avg >= 90 then return "A" elseif avg >= 80 then return "B" elseif avg >= 70 then return "C"
  elseif avg >= 60 then return "D" end
  return "F"
end
local report = {}
for _, s in ipairs(students) do
  local sum = 0
  for _, v in ipairs(s.scores) do sum = sum + v end
  local avg = #s.scores > 0 and sum / #s.scores or 0
  report[#report + 1] = { name = s.name, avg = avg, grade = grade(avg) }
end
table.sort(report, function(a, b) if a.avg ~= b.avg then return a.avg > b.avg end return a.name < b.name end)
for i, r in ipairs(report) do print(i, r.name, string.format("%6.2f", r.avg), r.grade) end
return report
