local buf = {}
for i = 1, 20 do
  if i % 15 == 0 then buf[#buf + 1] = "FizzBuzz"
  elseif i % 3 == 0 then buf[#buf + 1] = "Fizz"
  elseif i % 5 == 0 then buf[#buf + 1] = "Buzz"
  else buf[#buf + 1] = tostring(i) end
end
local s = table.concat(buf, " ")
print(s)
print(#s)
local acc = ""
for i = 1, 10 do acc = acc .. i .. (i < 10 and "," or "") end
print(acc)
return s
