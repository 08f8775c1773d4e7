local inf, nan = math.huge, 0 / 0
print(inf, -inf, inf > math.maxinteger, -inf < math.mininteger)
print(nan ~= nan, nan == nan, nan < 1, nan > 1, inf == inf)
print(inf - inf ~= inf - inf, inf * 0 ~= inf * 0, math.max(1, inf), math.min(-inf, 0))
print(math.floor(3.7), math.floor(-3.7), math.ceil(3.2), math.ceil(-3.2))
print(pcall(math.floor, inf) and math.floor(inf))
print(math.type(math.floor(inf)), math.type(math.floor(2.0)), math.tointeger(inf))
local t = {}
print(pcall(function() t[nan] = 1 end))
print(pcall(function() t[nil] = 1 end))
print(t[nan], t[nil])
return { inf > 0, nan ~= nan }
