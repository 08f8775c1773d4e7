local t = {}
for i = 1000, 1, -1 do t[i] = i end
print(#t, t[1], t[1000])
local u = {}
local order = {}
for i = 1, 500 do order[i] = i end
local x = 17
for i = 500, 2, -1 do
  x = (x * 1103515245 + 12345) % 2147483648
  local j = x % i + 1
  order[i], order[j] = order[j], order[i]
end
for _, k in ipairs(order) do u[k] = k * 2 end
print(#u, u[1], u[250], u[500])
local v = {}
v[3] = "c"; v[2] = "b"; v[1] = "a"
print(#v, table.concat(v))
local w = { n = 0 }
for i = 1, 64 do w[i] = true end
for i = 64, 33, -1 do w[i] = nil end
print(#w)
local s = 0
for i = 1, #u do s = s + u[i] end
print(s)
return { #t, #u, #v, #w }
