local function wrap(f)
  return function(...)
    local args = table.pack(...)
    local res = table.pack(f(...))
    return args.n, res.n, table.unpack(res, 1, res.n)
  end
end
local function swap(a, b) return b, a end
local w = wrap(swap)
print(w(1, 2))
print(w(1))
print(w())
local function tail(...) return select(2, ...) end
print(tail(1, 2, 3))
local function varsum(first, ...)
  if first == nil then return 0 end
  return first + varsum(...)
end
print(varsum(1, 2, 3, 4, 5))
local t = { (swap(1, 2)) }
print(#t, t[1])
return { w(7, 8) }
