-- Recursive Fibonacci: function-call overhead (1.6 million calls).
-- Checksum: fib(30) = 832040.
local function fib(n)
  if n < 2 then
    return n
  end
  return fib(n - 1) + fib(n - 2)
end

local result = fib(30)
print(result)
return result
