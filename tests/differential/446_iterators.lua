local function range(n, step)
  step = step or 1
  return function(_, i) i = i + step; if i <= n then return i end end, nil, 0
end
local acc = {}
for i in range(5) do acc[#acc + 1] = i end
for i in range(10, 4) do acc[#acc + 1] = i end
print(table.concat(acc, ","))
local function sorted_pairs(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local i = 0
  return function() i = i + 1; local k = keys[i]; if k ~= nil then return k, t[k] end end
end
local out = {}
for k, v in sorted_pairs({b = 2, a = 1, [3] = "three", c = true}) do out[#out + 1] = tostring(k) .. "=" .. tostring(v) end
print(table.concat(out, " "))
local t = {10, 20, 30}
local k, v = next(t)
local seen = 0
while k do seen = seen + v; k, v = next(t, k) end
print(seen, next(t, #t))
local f, s, init = ipairs({"x", "y"})
print(type(f), init, f(s, 0), f(s, 1), f(s, 2))
local pf, ps, pk = pairs({})
print(type(pf), pk, pf(ps))
local function chars(str)
  local i = 0
  return function() i = i + 1; if i <= #str then return i, str:sub(i, i) end end
end
local cs = {}
for i, c in chars("abc") do cs[#cs + 1] = c:upper() .. i end
print(table.concat(cs))
local function enumerate(list) local i = 0; return function() i = i + 1; if list[i] ~= nil then return i, list[i] end end end
for i, v in enumerate({"p", "q"}) do print(i, v) end
return acc
