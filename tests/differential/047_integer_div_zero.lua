print(pcall(function() return 1 // 0 end))
print(pcall(function() return 1 % 0 end))
print(1 // 0.0, -1 // 0.0, 1 % 0.0 ~= 1 % 0.0)
print(1 / 0, -1 / 0, 0 / 0 ~= 0 / 0)
print(pcall(function() local a, b = 7, 0; return a // b end))
print(math.huge // 1, -math.huge // 1)
print(5 // 0.0, 0.0 / 1)
return "ok"
