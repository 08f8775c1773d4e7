local text = "price: 100%"
print("parsing")
local n = text:match("(%d+)%")
return n
