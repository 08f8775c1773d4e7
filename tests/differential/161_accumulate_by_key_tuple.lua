local rows = {
  { country = "DE", city = "Berlin", pop = 3.6 }, { country = "DE", city = "Hamburg", pop = 1.8 },
  { country = "FR", city = "Paris", pop = 2.1 }, { country = "FR", city = "Lyon", pop = 0.5 },
  { country = "DE", city = "Berlin", pop = 0.1 }, { country = "ES", city = "Madrid", pop = 3.3 },
}
local acc = {}
for _, r in ipairs(rows) do
  local key = r.country .. "/" .. r.city
  acc[key] = (acc[key] or 0) + r.pop
end
local keys = {}
for k in pairs(acc) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do print(k, acc[k], string.format("%.1f", acc[k])) end
return acc
