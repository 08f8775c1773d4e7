local function three() return 1, 2, 3 end
local a, b, c, d = three()
print(a, b, c, d)
local x, y = three(), 10
print(x, y)
local t = { three(), three() }
print(#t, table.concat(t, ","))
local u = { three(), (three()) }
print(#u)
print(three(), "end")
print((three()))
local function none() end
local p, q = none()
print(p, q, select("#", none()), select("#", (none())))
return { three() }
