local total = 0
for i = 1, 10 do total = total + i end
print("total", total)
return
