local t = {}
t["1"] = "string one"
t[1] = "integer one"
t[1.5] = "float"
t["1.5"] = "string float"
print(t["1"], t[1], t[1.5], t["1.5"], t[tonumber("1")], t[tostring(1)])
local ids = { "10", "9", "100", "1" }
local asNum = {}
for i, s in ipairs(ids) do asNum[i] = tonumber(s) end
table.sort(ids); table.sort(asNum)
print(table.concat(ids, ","), table.concat(asNum, ","))
return t
