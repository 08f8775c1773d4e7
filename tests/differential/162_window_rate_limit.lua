local requests = { 0, 100, 200, 250, 900, 1000, 1050, 1100, 1150, 1999, 2000, 2500 }
local limit, window = 3, 1000
local accepted, rejected, recent = {}, {}, {}
for _, t in ipairs(requests) do
  local kept = {}
  for _, r in ipairs(recent) do if t - r < window then kept[#kept + 1] = r end end
  recent = kept
  if #recent < limit then
    recent[#recent + 1] = t
    accepted[#accepted + 1] = t
  else
    rejected[#rejected + 1] = t
  end
end
print("accepted", table.concat(accepted, " "))
print("rejected", table.concat(rejected, " "))
return { accepted = accepted, rejected = rejected }
