local s, f = 0, 0.0
for i = 1, 100000 do
  s = s + i
  f = f + i / 2
end
print(s, f)
local acc = 0
for i = 1, 50000 do acc = (acc * 31 + i) % 1000000007 end
print(acc)
local x = 0
for i = 1, 1000 do x = x ~ (i * 2654435761) end
print(x)
local overflow = math.maxinteger
for i = 1, 3 do overflow = overflow + math.maxinteger end
print(overflow)
return { s, acc }
