local parts = {}
local ok = xpcall(function() parts[1] = tools.orders.get({ id = "a" }).id end, debug and debug.traceback or print)
parts[2] = tostring(ok)
return table.concat(parts, "/")
