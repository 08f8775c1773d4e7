print("formatting")
local s = string.rep(nil, 3)
return s
