print(1 == 1.0, math.maxinteger == math.maxinteger + 0.0, 2^53 == 2^53 + 1)
print(math.maxinteger + 0.0 == 2^63, math.maxinteger < 2^63, math.mininteger == -2^63)
print(1 < 1.5, 2 > 1.9999999, -1 < -0.5, math.maxinteger < math.huge)
print(9007199254740993 < 9007199254740992.0, 9007199254740993 > 9007199254740992.0)
print(math.mininteger <= -2^63, math.maxinteger >= 2^63)
print(3 == 3.0000000000000001, 0.1 * 3 == 0.3, 1e308 * 10 == math.huge)
local t = { [3] = "int" }
print(t[3.0], t[6 / 2], t[3.5])
return { 1 == 1.0, 2^53 == 2^53 + 1 }
