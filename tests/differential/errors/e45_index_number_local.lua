local x = 5
local y = x.field
