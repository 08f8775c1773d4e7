local list = {1, 2, 3}
for i, v in list do print(i, v) end
