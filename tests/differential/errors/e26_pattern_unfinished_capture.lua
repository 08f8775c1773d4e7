local line = "key=value"
local k, v = line:match("(%w+)=(%w+")
print(k, v)
return k
