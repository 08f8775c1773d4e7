local attempts, value = 0, nil
local sequence = { nil, false, 0, 5 }
repeat
  attempts = attempts + 1
  local candidate = sequence[attempts]
  if candidate then value = candidate break end
until attempts >= 10
print(attempts, value)
local total = 0
repeat
  local x = total + 7
  total = x
  if total > 30 then break end
until false
print(total)
local i = 10
repeat i = i - 3 until i < 0
print(i)
return { attempts, value, total }
