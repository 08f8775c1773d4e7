local N = 5000
local composite = {}
for i = 2, math.floor(math.sqrt(N)) do
  if not composite[i] then
    for j = i * i, N, i do composite[j] = true end
  end
end
local primes = {}
for i = 2, N do if not composite[i] then primes[#primes + 1] = i end end
print(#primes, primes[1], primes[100], primes[#primes])
local twin = 0
for i = 2, #primes do if primes[i] - primes[i - 1] == 2 then twin = twin + 1 end end
print("twin pairs", twin)
return { count = #primes, last = primes[#primes] }
