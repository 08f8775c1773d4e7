local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print(depth(150), depth(1000))
local function sum_list(t, i)
  i = i or 1
  if i > #t then return 0 end
  return t[i] + sum_list(t, i + 1)
end
local t = {}
for i = 1, 300 do t[i] = i end
print(sum_list(t))
local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + n) end
print(tail(100000, 0))
return depth(200)
