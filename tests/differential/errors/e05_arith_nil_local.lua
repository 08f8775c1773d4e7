local total
for i = 1, 3 do
  print(i)
end
return total + 1
