local n, d = 10, 0
print(n / d)
-- lua5.4 reports an integer division by zero at the line of the last call before it,
-- so the division shares its line with a call to keep the expected line unambiguous
local q = tonumber("1") + n // d
return q
