local i = 0
repeat
  local sq = i * i
  i = i + 1
until sq > 50
print(i)
local queue, processed = { 5, 3, 8 }, {}
repeat
  local item = table.remove(queue, 1)
  processed[#processed + 1] = item
  if item == 3 then queue[#queue + 1] = 1 end
  local done = #queue == 0
until done
print(table.concat(processed, " "))
local n = 27
local steps = 0
repeat
  if n % 2 == 0 then n = n // 2 else n = 3 * n + 1 end
  steps = steps + 1
until n == 1
print("collatz steps", steps)
return steps
