local seen = {}
for _, o in ipairs(tools.orders.list()) do seen[o.id] = true end
local keys = {}
for k in pairs(seen) do keys[#keys + 1] = k end
table.sort(keys)
return keys
