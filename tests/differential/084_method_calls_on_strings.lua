local s = "Code Mode"
print(s:len(), s:upper(), s:lower(), s:rep(2, "|"), s:sub(6), s:byte(1), s:reverse())
print(("%d items"):format(3), ("x"):rep(3), ("abc"):find("b", 1, true))
local name = "report"
print((name .. ".txt"):upper())
local n = 42
print(tostring(n):len(), ("%5.1f"):format(n))
local t = { s = "inner" }
print(t.s:upper(), #t.s)
return s:lower()
