print(tostring(nil), tostring(true), tostring(false), tostring(123), tostring(-0.5), tostring("s"))
print(type(nil), type(1), type(1.5), type("x"), type({}), type(print), type(function() end), type(true))
print(pcall(type))
print(nil, false, 0, "", "end")
print()
print("a", nil, "b")
print(#tostring(12.0), tostring(1e16), tostring(-1e-7))
local t = { tostring(1), tostring(1.0), tostring(-0.0), tostring(1/0) }
return t
