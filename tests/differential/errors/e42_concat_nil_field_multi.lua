local t = {name = "x"}
print("start")
local s = "name: " .. t.name .. ", size: " .. t.size
print(s)
