-- a stored gmatch iterator (a closure over its state) lives across tool calls and snapshots
local ids = ("a b bad"):gmatch("%a+")
local totals = {}
local first = ids()
totals[#totals + 1] = tools.orders.get({ id = first }).total
for id in ids do
  local ok, r = pcall(tools.orders.get, { id = id })
  totals[#totals + 1] = ok and r.total or -1
end
return { totals = totals, after = select("#", ids()) }
