local s = "abc"
local n = s:len() + s:nope()
