local r = tools.orders.get({ id = "a" })
local s = string.format("%s:%d:%.2f", r.id, r.total, r.total / 3)
print(s)
return s
