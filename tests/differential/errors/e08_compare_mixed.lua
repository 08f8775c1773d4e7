local rows = { { n = 1 }, { n = "2" } }
local a, b = rows[1].n, rows[2].n
print(type(a), type(b))
if a < b then print("less") end
