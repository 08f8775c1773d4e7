local a = {}
local b = a < 2
