local s = "Hello, World"
print(s:sub(1, 5), s:sub(-5), s:sub(8), s:sub(0), s:sub(5, 3), s:sub(-100, 2), s:sub(3, -3))
print(string.rep("ab", 3), string.rep("x", 0), string.rep("-", 3, "+"), ("="):rep(5))
print(#s, s:len(), s:upper(), s:lower(), s:reverse())
local line = string.rep("=", 20)
print(line)
return { s:sub(2, 4), s:sub(-3, -1), string.rep("ab", 2, ",") }
