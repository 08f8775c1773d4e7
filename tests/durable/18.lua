local function walk(d) if d == 0 then return tools.orders.get({ id = "deep" }).total end return walk(d - 1) + 1 end
return walk(50)
