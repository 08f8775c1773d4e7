local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
print(fact(20), fact(21), fact(25.0))
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(20))
local memo = {}
local function fibm(n)
  if n < 2 then return n end
  if memo[n] then return memo[n] end
  local v = fibm(n - 1) + fibm(n - 2)
  memo[n] = v
  return v
end
print(fibm(90), fibm(92))
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print(depth(10000))
local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + 1) end
print(tail(1000000, 0))
local function ackermann(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ackermann(m - 1, 1) end
  return ackermann(m - 1, ackermann(m, n - 1))
end
print(ackermann(2, 3))
local function flatten(t, out)
  out = out or {}
  for _, v in ipairs(t) do
    if type(v) == "table" then flatten(v, out) else out[#out + 1] = v end
  end
  return out
end
print(table.concat(flatten({1, {2, {3, {4, {5}}}}, 6}), ","))
local function hanoi(n, a, b, c, moves)
  if n == 0 then return moves end
  hanoi(n - 1, a, c, b, moves)
  moves[#moves + 1] = a .. c
  hanoi(n - 1, b, a, c, moves)
  return moves
end
print(#hanoi(10, "A", "B", "C", {}), table.concat(hanoi(2, "A", "B", "C", {}), " "))
local function perms(arr, n, acc)
  n = n or #arr; acc = acc or {}
  if n == 1 then acc[#acc + 1] = table.concat(arr) return acc end
  for i = 1, n do
    arr[i], arr[n] = arr[n], arr[i]
    perms(arr, n - 1, acc)
    arr[i], arr[n] = arr[n], arr[i]
  end
  return acc
end
local ps = perms({"a", "b", "c"})
table.sort(ps)
print(table.concat(ps, " "))
return fib(15)
