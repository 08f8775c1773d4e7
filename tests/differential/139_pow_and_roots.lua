print(2^0, 2^1, 2^-2, 0^0, 0^-1, (-1)^0.5 ~= (-1)^0.5, 4^0.5, 27^(1/3))
print(math.sqrt(-1) ~= math.sqrt(-1), math.sqrt(0), math.sqrt(1e100))
print(10^15, 10^16, 2^63, 2^64, -2^63)
print(math.exp(1), math.log(0), math.log(-1) ~= math.log(-1))
local compounded = 1000 * (1 + 0.05) ^ 10
print(string.format("%.2f", compounded))
return { 2^10, 4^0.5 }
