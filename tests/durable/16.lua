print("start")
local r = tools.orders.get({ id = "a" })
print("got", r.id)
error("stop here: " .. r.id)
