local user = { profile = nil }
print("user loaded")
local name = user.profile:getName()
return name
