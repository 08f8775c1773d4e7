local big = {}
for i = 1, 2000 do big[i] = { i = i, s = "row" .. i } end
local r = tools.orders.get({ id = "a" })
local n = 0
for _, row in ipairs(big) do n = n + row.i end
return n + r.total
