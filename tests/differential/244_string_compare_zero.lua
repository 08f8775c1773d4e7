print("a\0b" < "a\0c", "a\0" > "a", "\0" < "\1", "" < "\0", "a\0b" == "a\0b")
local t = { "b\0", "b", "a\0z", "a", "\0" }
table.sort(t)
local out = {}
for i, s in ipairs(t) do out[i] = #s .. ":" .. (s:byte(1) or 0) .. ":" .. (s:byte(2) or -1) end
print(table.concat(out, " "))
return t
