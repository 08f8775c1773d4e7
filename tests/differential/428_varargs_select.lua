local function f(...)
  local a, b = ...
  return select('#', ...), a, b, select(2, ...)
end
print(f())
print(f(nil))
print(f(1, nil, 3))
print(select(-1, "a", "b", "c"), select(-2, "a", "b", "c"))
print(pcall(select, 0, "a"))
print(pcall(select, -5, "a"))
print(select(5, "a", "b"))
print(select('#'), select('#', nil, nil))
print(pcall(select, "x"))
print(select(2.0, "a", "b"))
local function pass(...) return ... end
print(pass(1, 2, 3), pass(4, 5))
print((pass(1, 2, 3)))
local t = {pass(1, 2), pass(3, 4)}
print(#t, t[1], t[2], t[3])
local function count_nils(...)
  local n = 0
  for i = 1, select('#', ...) do if select(i, ...) == nil then n = n + 1 end end
  return n
end
print(count_nils(nil, 1, nil, nil))
local function va_table(...) local p = {n = select('#', ...), ...}; return p end
local p = va_table("a", nil, "c")
print(p.n, p[1], p[2], p[3])
local function sum(first, ...)
  if first == nil then return 0 end
  return first + sum(...)
end
print(sum(1, 2, 3, 4, 5))
local function apply(fn, ...) return fn(...) end
print(apply(math.max, 3, 9, 2), apply(string.rep, "ab", 2))
print(string.format("%s-%s", pass("x", "y", "z")))
local function tail(...) return select(2, ...) end
print(tail(1), tail(1, 2), tail(1, 2, 3))
return select('#', pass(nil, nil, nil))
