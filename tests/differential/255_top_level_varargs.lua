local n = select("#", ...)
local first = ...
print(n, first)
local packed = table.pack(...)
print(packed.n)
local function inner(...) return select("#", ...) end
print(inner(...), inner(..., 1), inner(1, ...))
return n
