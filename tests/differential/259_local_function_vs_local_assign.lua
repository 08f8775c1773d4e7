local ok, err = pcall(function()
  local fact = function(n)
    if n <= 1 then return 1 end
    return n * fact(n - 1)
  end
  return fact(5)
end)
print(ok, err)
local function fact2(n)
  if n <= 1 then return 1 end
  return n * fact2(n - 1)
end
print(fact2(5))
local fib
fib = function(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(15))
return fact2(6)
