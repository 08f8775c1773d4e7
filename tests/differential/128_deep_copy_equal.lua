local function deepcopy(v)
  if type(v) ~= "table" then return v end
  local r = {}
  for k, x in pairs(v) do r[deepcopy(k)] = deepcopy(x) end
  return r
end
local function deepeq(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  for k, v in pairs(a) do if not deepeq(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
local orig = { a = 1, b = { c = { 1, 2, 3 }, d = "x" }, e = { true, false } }
local copy = deepcopy(orig)
print(deepeq(orig, copy), orig == copy, orig.b == copy.b)
copy.b.c[2] = 20
print(deepeq(orig, copy), orig.b.c[2], copy.b.c[2])
print(deepeq({}, {}), deepeq({ 1 }, { 1, 2 }), deepeq({ x = 1.0 }, { x = 1 }))
return copy
