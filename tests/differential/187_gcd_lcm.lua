local function gcd(a, b) while b ~= 0 do a, b = b, a % b end return math.abs(a) end
local function lcm(a, b) return a // gcd(a, b) * b end
print(gcd(48, 18), gcd(17, 5), gcd(0, 9), gcd(-12, 8), gcd(2^40 | 0, 2^20 | 0))
local l = 1
for i = 1, 20 do l = lcm(l, i) end
print(l)
local function reduce(n, d)
  local g = gcd(n, d)
  return n // g, d // g
end
print(reduce(84, 126), reduce(1000, 10))
print(gcd(12.0, 8), math.type(gcd(12.0, 8)))
return l
