local LIMIT <const> = 10
local name <const>, count = "x", 3
local s = 0
for i = 1, LIMIT do s = s + i end
print(s, name, count)
print(9223372036854775807, 9223372036854775808, -9223372036854775808, math.type(-9223372036854775808))
print(0x7fffffffffffffff + 1, 0xff, 0XA, 0x.8p1, 0x1P-2, 1E2, .5e1, 3e-2)
print(tonumber("0x7fffffffffffffff"), tonumber("0xffffffffffffffff"), tonumber("1e1"), tonumber("  0x1A  "))
print(tonumber("1 2"), tonumber("- 1"), tonumber("-0x10"), tonumber("+5"), tonumber("++5"), tonumber("0b101"))
print(tonumber("9223372036854775808"), tonumber("-9223372036854775809"), math.tointeger("9223372036854775807"))
print("\x41\66\u{43}\z
       D", "tab:\t|", "\u{10FFFF}" == "\xF4\x8F\xBF\xBF", #"\u{7FFFFFFF}")
print([==[long ]] string]==], #[[
skip first newline]])
print(math.maxinteger < 2^63, math.maxinteger + 0.0 == 2^63, math.maxinteger == 2^63, 9007199254740993 == 2^53)
print(9007199254740993 < 9007199254740994.0, 2^53 < 9007199254740993, math.mininteger <= -2^63)
local n = 0
for x = 0, 1, 0.1 do n = n + 1 end
print(n, 2^31, math.floor(2^62), string.format("%.0f", 2^63), 3.0 .. "", 1e300 * 1e10)
print(1 .. 2, 1.0 .. 2, -1 .. -2)
local a, b, c = 1, 2
a, b = b, a
print(a, b, c)
local t = {1, 2}
local i = 1
i, t[i] = i + 1, 20
print(i, t[1], t[2])
return LIMIT
