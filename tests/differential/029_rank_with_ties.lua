local results = {
  { name = "a", time = 9.8 }, { name = "b", time = 10.1 }, { name = "c", time = 9.8 },
  { name = "d", time = 10.5 }, { name = "e", time = 10.1 }, { name = "f", time = 11.0 },
}
table.sort(results, function(x, y)
  if x.time ~= y.time then return x.time < y.time end
  return x.name < y.name
end)
local rank, out = 0, {}
for i, r in ipairs(results) do
  if i == 1 or r.time ~= results[i - 1].time then rank = i end
  out[i] = string.format("%d. %s %.1f", rank, r.name, r.time)
  print(out[i])
end
return out
