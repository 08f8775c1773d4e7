print(0xff, 0XFF, 0x10, 0xA.8p0, 0x.1p4, 0x1p-2, 0xffffffffffffffff, 0x7fffffffffffffff)
print(math.type(0x10), math.type(0x1p4), 0x10 + 0.0)
print(1e2, 1E2, 1e-2, .5, 5., 3e0, 0.0e10)
print(100 // 1e0, 7 // 0x2)
print(0x123456789abcdef0)
print(9223372036854775807, 9223372036854775808, -9223372036854775808)
return { 0xff, 0x1p4, 1e2 }
