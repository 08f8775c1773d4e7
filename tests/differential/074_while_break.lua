local n, found = 2, {}
while #found < 10 do
  local prime = true
  local d = 2
  while d * d <= n do
    if n % d == 0 then prime = false break end
    d = d + 1
  end
  if prime then found[#found + 1] = n end
  n = n + 1
end
print(table.concat(found, " "))
local x = 1000
while x > 1 do x = x / 3 end
print(x)
return found
