local fs = {}
for i = 1, 3 do fs[i] = function() return i end end
print(fs[1](), fs[2](), fs[3]())
local gs = {}
local j = 1
while j <= 3 do local k = j; gs[j] = function() return k, j end; j = j + 1 end
print(gs[1](), gs[3]())
local hs = {}
for _, name in ipairs({"a", "b"}) do hs[#hs + 1] = function(suffix) return name .. suffix end end
print(hs[1]("1"), hs[2]("2"))
local function counter()
  local n = 0
  return function() n = n + 1; return n end, function() return n end
end
local inc, get = counter()
inc(); inc()
local inc2 = counter()
inc2()
print(get(), inc2())
local acc = {}
for i = 1, 3 do
  local x = i * 10
  acc[i] = function() x = x + 1; return x end
end
print(acc[1](), acc[1](), acc[2](), acc[3]())
local function make_adders()
  local t = {}
  for i = 1, 3 do t[i] = function(v) return v + i end end
  return t
end
local ad = make_adders()
print(ad[1](100), ad[3](100))
local shared = {}
do
  local v = 0
  shared.set = function(n) v = n end
  shared.get = function() return v end
end
shared.set(42)
print(shared.get())
local r = {}
repeat local z = #r + 1; r[z] = function() return z end until #r == 3
print(r[1](), r[2](), r[3]())
return fs[2]()
