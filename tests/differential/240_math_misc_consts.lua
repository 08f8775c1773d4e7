print(math.pi, -math.pi, math.pi * 2, string.format("%.10f", math.pi))
print(math.huge, -math.huge, math.huge == 1/0, math.maxinteger + 1 == math.mininteger)
print(math.floor(math.pi), math.ceil(math.pi), math.tointeger(math.floor(math.pi)))
print(math.abs(-math.huge), math.max(math.mininteger, -math.huge), math.min(math.maxinteger, math.huge))
print(math.type(math.pi), math.type(math.maxinteger), math.type(math.huge))
print(math.floor(-0.0), 1 / math.floor(-0.0) < 0, math.ceil(-0.3))
return { math.pi, math.maxinteger, math.mininteger }
