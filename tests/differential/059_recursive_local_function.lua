local function fact(n)
  if n <= 1 then return 1 end
  return n * fact(n - 1)
end
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
local function ackermann(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ackermann(m - 1, 1) end
  return ackermann(m - 1, ackermann(m, n - 1))
end
print(fact(10), fact(20), fact(21))
print(fib(20))
print(ackermann(2, 3))
local function is_even(n) if n == 0 then return true end return not is_even(n - 1) end
print(is_even(10), is_even(7))
return { fact(5), fib(15) }
