local n = tonumber("12x")
print(n + 1)
