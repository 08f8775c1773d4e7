local r = tools.orders.get({ id = "bad" })
return r
