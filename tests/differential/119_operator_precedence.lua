print(2 + 3 * 4, (2 + 3) * 4, 2 ^ 3 ^ 2, -2 ^ 2, (-2) ^ 2)
print(1 .. 2 .. 3, "a" .. "b" == "ab", not nil == true, not 1 == nil)
print(1 < 2 == true, 5 - 3 - 1, 2 * 3 % 4, 7 // 2 * 2, -3 % 5, -(3 % 5))
print(1 | 2 ~ 3 & 4, 1 << 2 + 1, 5 & 3 == 1, ~0 >> 62)
print(true and 1 or 2, false and 1 or 2, nil or false, false or nil, nil and 1)
print(#"abc" + 1, -#"ab", #{ 1, 2 } * 2)
print("10" + 2 .. "", 2 .. 3 + 1)
print(3 > 2 and 2 > 1, 1 == 1.0, "1" == 1, 0 == -0)
return { 2 ^ 3 ^ 2, 2 + 3 * 4 }
