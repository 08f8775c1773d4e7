local api = { lookup = function(id) return { id = id } end }
local r = api.lookup(1)
print(r.id)
local r2 = api.lookpu(2)
return r2
