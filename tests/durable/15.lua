local cache = setmetatable ~= nil
local q = { "a", "bb", "ccc" }
local totals = {}
while #q > 0 do
  local id = table.remove(q, 1)
  totals[id] = tools.orders.get({ id = id }).total
end
return totals
