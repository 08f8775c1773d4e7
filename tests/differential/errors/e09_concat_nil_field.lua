local user = { first = "Ada" }
print(user.first)
local full = user.first .. " " .. user.last
return full
