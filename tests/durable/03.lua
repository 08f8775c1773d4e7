local sum = 0
for i = 1, 5 do sum = sum + tools.orders.get({ id = string.rep("z", i) }).total end
return sum
