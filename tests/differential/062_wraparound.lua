local max, min = math.maxinteger, math.mininteger
print(max, min)
print(max + 1 == min, max + 1, min - 1)
print(max * 2, min * -1, -min)
print(max // -1, min // -1, min % -1)
print(math.abs(min), max + 1.0, min - 1.0)
print(max * 1.0 == 2^63, 9007199254740993, 2^53 + 1)
print(1 << 63, (1 << 63) - 1, 1 << 64, -1 >> 1)
return { max + 1, min - 1, max * 3 }
