local nan = 0/0
local r = {}
local function add(...) local t = table.pack(...); for i = 1, t.n do t[i] = tostring(t[i]) end; local s = table.concat(t, " "); r[#r + 1] = s; print(s) end
add(nan ~= nan, nan == nan, nan < 1, nan > 1, -nan ~= -nan)
add(math.floor(1/0), math.ceil(-1/0), math.floor(-0.0), math.tointeger(nan), math.tointeger(1/0))
add(pcall(string.format, "%d", nan))
add(string.format("%.2f|%5.1f|%e|%g", 1/0, -1/0, 1/0, -1/0))
add(math.huge // 1, -math.huge // 1, math.huge % 2, 1 % math.huge, -1 % -math.huge)
add(math.max(1, 1/0), math.min(-1/0, 0), math.abs(-1/0), math.sqrt(1/0))
add(1/0 == math.huge, -1/0 == -math.huge, math.huge > math.maxinteger, 2^1023 * 2 == math.huge)
add(math.type(1/0), math.type(nan), 1e308 + 1e308, -1e308 - 1e308)
add(3 % -2, -3 % 2, 3.5 % -2, -3.5 % 2, 5 % -0.0 ~= 5 % -0.0)
add(0.0 == -0.0, 1/0.0, 1/-0.0, -0.0 + 0, 0 * -1, 0.0 * -1)
add(math.fmod(-6, 4), math.fmod(6, -4), math.fmod(-6.0, 4), math.fmod(1, 1/0))
add(7 // -2, -7 // -2, 7.0 // -2, -0.0 // 1, 0 // -1)
add(2^63 == math.maxinteger + 1.0, math.mininteger == -2^63, math.maxinteger // -1, math.mininteger // -1)
add(math.mininteger % -1, math.mininteger * -1, -math.mininteger)
return r
