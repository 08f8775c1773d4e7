local a, b, c = "x", 12, 3.5
local s = a .. "-" .. b .. "-" .. c .. "-" .. tostring(nil) .. "-" .. tostring(true) .. "-" .. -1 .. "-" .. 2^3
print(s)
local t = {}
for i = 1, 10 do t[i] = i end
local joined = ""
for i = 1, #t do joined = joined .. t[i] .. (i % 3 == 0 and "\n" or " ") end
print(joined)
print(pcall(function() return "a" .. nil end))
print(pcall(function() return "a" .. {} end))
print(pcall(function() return 1 .. true end))
return s
