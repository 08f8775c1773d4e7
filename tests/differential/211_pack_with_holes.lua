local function f(...)
  local p = table.pack(...)
  local out = {}
  for i = 1, p.n do out[i] = tostring(p[i]) end
  return p.n, table.concat(out, ",")
end
print(f(nil, 2, nil))
print(f(nil))
print(f())
print(f(false, nil, false))
local p = table.pack(nil, nil, 3)
print(p.n, p[3], table.unpack(p, 1, p.n))
return p
