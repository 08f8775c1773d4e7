local function map(t, f) local r = {} for i, v in ipairs(t) do r[i] = f(v, i) end return r end
local function filter(t, p) local r = {} for _, v in ipairs(t) do if p(v) then r[#r + 1] = v end end return r end
local function reduce(t, f, acc) for _, v in ipairs(t) do acc = f(acc, v) end return acc end
local nums = {}
for i = 1, 10 do nums[i] = i end
local squares = map(nums, function(v) return v * v end)
local evens = filter(squares, function(v) return v % 2 == 0 end)
local total = reduce(evens, function(a, v) return a + v end, 0)
print(table.concat(squares, " "))
print(table.concat(evens, " "))
print(total)
local compose = function(f, g) return function(...) return f(g(...)) end end
local inc = function(x) return x + 1 end
local dbl = function(x) return x * 2 end
print(compose(inc, dbl)(5), compose(dbl, inc)(5))
return { total = total, evens = evens }
