local recs = {}
for i = 1, 120 do
  recs[i] = { id = i, group = (i * 7) % 5, score = (i * 13) % 4 }
end
for i, r in ipairs(recs) do r.pos = i end
table.sort(recs, function(a, b)
  if a.group ~= b.group then return a.group < b.group end
  if a.score ~= b.score then return a.score > b.score end
  return a.pos < b.pos
end)
local sig = {}
for i = 1, #recs, 10 do sig[#sig + 1] = recs[i].id end
print(table.concat(sig, " "))
local ok = true
for i = 2, #recs do
  local a, b = recs[i - 1], recs[i]
  if a.group == b.group and a.score == b.score and a.pos > b.pos then ok = false end
end
print("stable", ok)
return sig
