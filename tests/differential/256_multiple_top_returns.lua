local a, b = 10, 2.5
print("returning three values")
return a, b, { a = a, list = { b, "x" } }
