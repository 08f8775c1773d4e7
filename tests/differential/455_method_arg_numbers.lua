-- bad-argument numbers when a library function is called as a method (lua5.4 counts from the
-- argument after self)
local function msg(f) local ok, e = pcall(f); return e end
print(msg(function() return ("%d"):format("x") end))
print(msg(function() return ("abc"):rep({}) end))
print(msg(function() return ("abc"):sub("x") end))
print(msg(function() return ("abc"):find({}) end))
print(msg(function() return ("abc"):gsub("b", true) end))
print(msg(function() return ("abc"):byte("z") end))
print(msg(function() local s = "abc"; return s.rep(s, {}) end))
print(msg(function() local s = "abc"; return s.upper({}) end))
print(msg(function() local t = {}; t.ins = table.insert; return t:ins(1, 2, 3) end))
print(msg(function() local m = {floor = math.floor}; return m:floor() end))
print(msg(function() local m = {floor = math.floor}; return m.floor("q") end))
local fmt = string.format
print(msg(function() return fmt("%d", "bad") end))
print(msg(function() local obj = {f = string.rep}; return obj.f("x", "y") end))
