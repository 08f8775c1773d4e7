local ok, err = pcall(function() return tools.orders.get({ id = "bad" }) end)
print(ok, err)
return ok
