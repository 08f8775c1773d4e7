local r = {}
local function add(...) local t = table.pack(...); for i = 1, t.n do t[i] = tostring(t[i]) end; r[#r + 1] = table.concat(t, " "); print(r[#r]) end
add(0.0 // -1, -0.0 % 1, 0.0 % -1, -7 // 7.0, 7 // -7.0, -0.0 * 0, 0 * -0.0, -0.0 - 0.0, -0.0 + -0.0)
add(math.fmod(-0.0, 1), math.fmod(0.0, -1), math.abs(-0.0), -0.0 == 0, math.max(-0.0, 0.0), math.min(0.0, -0.0))
add(string.format("%g %f %.1e %d", -0.0, -0.0, -0.0, 0), math.floor(-0.0), math.ceil(-0.4), math.tointeger(-0.0))
add(-0.0 .. "", 0.0 .. "", tostring(-(0.0)), tostring(0 * -1.0), 1 / (0 * -1.0))
add(3 % -math.huge, -3 % math.huge, 0.0 % math.huge, -0.0 % -math.huge)
add(math.sqrt(-0.0), (-0.0) ^ 0.5, (-0.0) ^ 1, 2 ^ -1074, 2 ^ -1075)
return r
