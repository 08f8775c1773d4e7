local data = { a = { 1 } }
print("start")
local out = ("a b"):gsub("%a", data)
return out
