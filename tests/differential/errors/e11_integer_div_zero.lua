local n, d = 10, 0
print(n / d)
return n // d
