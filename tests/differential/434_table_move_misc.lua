local a = {1, 2, 3, 4, 5}
table.move(a, 2, 4, 1)
print(table.concat(a, ","))
local b = table.move({1, 2, 3}, 1, 3, 3)
print(table.concat(b, ","))
local c = table.move({1, 2, 3}, 1, 3, 1, {})
print(table.concat(c, ","), #c)
local d = table.move({}, 1, 0, 5, {9})
print(#d, d[1])
print(pcall(table.move, {}, 1, 2))
local function slice(t, i, j)
  return table.move(t, i, j, 1, {})
end
print(table.concat(slice({"a", "b", "c", "d"}, 2, 3), ""))
local function append_all(dst, src) return table.move(src, 1, #src, #dst + 1, dst) end
print(table.concat(append_all({1, 2}, {3, 4, 5}), " "))
local function reverse(t)
  local n = #t
  for i = 1, n // 2 do t[i], t[n - i + 1] = t[n - i + 1], t[i] end
  return t
end
print(table.concat(reverse({1, 2, 3, 4, 5}), ""))
local function filter(t, p) local o = {}; for _, v in ipairs(t) do if p(v) then o[#o + 1] = v end end; return o end
local function map(t, f) local o = {}; for i, v in ipairs(t) do o[i] = f(v) end; return o end
local function reduce(t, f, init) local acc = init; for _, v in ipairs(t) do acc = f(acc, v) end; return acc end
local evens = filter({1, 2, 3, 4, 5, 6}, function(x) return x % 2 == 0 end)
print(table.concat(map(evens, function(x) return x * x end), ","), reduce(evens, function(s, x) return s + x end, 0))
print(reduce({1.5, 2, 3}, function(s, x) return s + x end, 0))
local t = {}
for i = 1, 10 do t[#t + 1] = i end
for i = #t, 1, -1 do if t[i] % 3 == 0 then table.remove(t, i) end end
print(table.concat(t, ","))
return a, b, c
