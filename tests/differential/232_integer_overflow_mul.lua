local x = 1
local steps = {}
for i = 1, 70 do
  x = x * 3
  if i % 10 == 0 then steps[#steps + 1] = x end
end
print(table.concat(steps, " "))
local f = 1.0
for i = 1, 70 do f = f * 3 end
print(f, string.format("%.0f", f))
print(math.maxinteger * math.maxinteger, math.mininteger * math.mininteger, math.mininteger * -1)
print(2^62 | 0, (2^62 | 0) * 2, (2^62 | 0) * 4)
return steps
