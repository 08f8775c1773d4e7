local s = "abc"
print(s.x, type(s.len), type(s.upper), s.len(s), s.upper(s))
print(("xyz").rep("ab", 2), #s, s:len())
local ok, e = pcall(function() return s.x.y end)
print(ok, e)
ok, e = pcall(function() s.x = 1 end)
print(ok, e)
print(tostring(-0), tostring(0), -0 == 0, math.type(-0))
return { s.x == nil, type(s.len) }
