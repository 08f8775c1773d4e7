local queue = { 5, 0, 3, -1, 8, 2 }
local i, sum, stop = 1, 0, nil
while i <= #queue and not stop do
  local v = queue[i]
  if v < 0 then stop = "negative at " .. i
  elseif v == 0 then i = i + 1
  else sum = sum + v; i = i + 1 end
end
print(sum, i, stop)
local a, b = 0, 1
local fibs = {}
while b < 200 do fibs[#fibs + 1] = b; a, b = b, a + b end
print(table.concat(fibs, " "))
local x = 100
while x > 1 and x % 2 == 0 or x == 25 do x = x == 25 and 24 or x // 2 end
print(x)
return fibs
