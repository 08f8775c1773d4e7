-- line comment
--[[ block
comment ]] local a = 1
--[==[ another
]] still comment ]==]
local b = 2 -- trailing
local c = a + --[[inline]] b
print(a, b, c)
local t = { 1, 2, 3, } -- trailing comma
local u = { 1; 2; 3 } -- semicolons
local v = { [10] = "a"; "b" } -- explicit and positional keys
print(#t, #u, v[1], v[10])
;;; local d = 4;
print(d)
local function f(...) return ... end
print(f(1, 2, 3))
local x <const> = 10
local y <const>, z = 20, 30
print(x + y + z)
return { a, b, c, d }
