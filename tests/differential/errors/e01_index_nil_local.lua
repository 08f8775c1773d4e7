local config = { name = "x" }
print("before")
local t = nil
return t.x
