print(tostring(10), tostring(10.0), tostring(-10.5), tostring(1e100), tostring(2^63))
print(tonumber("10"), tonumber("10.0"), tonumber("  12  "), tonumber("1e3"), tonumber("0x10"))
print(tonumber("0x1p4"), tonumber(".5"), tonumber("5."), tonumber("-0x10"), tonumber("- 1"))
print(tonumber(""), tonumber(" "), tonumber("abc"), tonumber("1 2"), tonumber("inf"), tonumber("nan"))
print(tonumber("9223372036854775807"), tonumber("9223372036854775808"), tonumber("-9223372036854775808"))
print(tonumber("0x7fffffffffffffff"), tonumber("0xffffffffffffffff"), tonumber("1e500"))
print(tonumber(42), tonumber(4.5), tonumber(nil), tonumber(true), tonumber({}))
print(math.type(tonumber("10")), math.type(tonumber("10.0")), math.type(tonumber("1e1")))
return { tonumber("42"), tonumber("0x2A"), tonumber("4.2e1") }
