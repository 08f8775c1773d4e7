print(math.tointeger(5.0), math.tointeger(5.5), math.tointeger(-0.0), math.tointeger(2^63), math.tointeger(-2^63))
print(3.0 | 0, 2^31 | 0, math.floor(-0.0), math.ceil(-0.5))
print(pcall(function() return 2^63 | 0 end))
print(string.format("%d", -0.0), math.floor(1e100) == 1e100, math.type(math.floor(1e100)))
print(7 // 1.0, math.type(7 // 1.0), 7.0 // 2, 2^2, math.type(2^2))
print(math.abs(math.mininteger), math.abs(-0.0), -math.mininteger)
print(tostring(3) == "3", tostring(3.0) == "3.0", 3 | 0, math.tointeger("3"))
local function toint(x)
  local n = math.tointeger(x)
  if n then return n end
  return math.floor(x + 0.5)
end
print(toint(2.4), toint(2.5), toint(-2.5), toint(10))
return { math.tointeger(8.0), math.floor(2.7) }
