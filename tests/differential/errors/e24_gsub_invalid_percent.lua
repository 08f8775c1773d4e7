local s = "50 percent"
print(s:gsub("percent", "%%"))
local r = s:gsub("(%d+)", "%1%")
return r
