local function validate(x)
  if type(x) ~= "number" then error("expected number, got " .. type(x), 2) end
  return x
end
local function outer(v) return validate(v) end
print(pcall(outer, "s"))
print(pcall(validate, "s"))
print(pcall(error, "plain"))
print(pcall(error, "lvl0", 0))
print(pcall(error, "lvl1", 1))
print(pcall(error, "lvl2", 2))
print(pcall(function() error("in anon") end))
print(pcall(function() error("no pos", 0) end))
print(pcall(function() error() end))
print(pcall(function() error(nil) end))
print(pcall(function() error(42) end))
print(pcall(function() error(42.5, 2) end))
print(select('#', pcall(error)))
local ok, e = pcall(function() error({code = 404, msg = "not found"}) end)
print(ok, type(e), e.code, e.msg)
local ok2, e2 = pcall(function() error(setmetatable == nil and "x" or "has setmetatable") end)
print(ok2, e2)
local function level3() error("deep", 3) end
local function level2() level3() end
local function level1() level2() end
print(pcall(level1))
local ok3, e3 = pcall(function()
  local ok4, e4 = pcall(error, "inner")
  error("outer: " .. e4, 0)
end)
print(ok3, e3)
print(pcall(assert, false))
print(pcall(assert, nil, "custom msg"))
print(select("#", pcall(assert, false, {1})), type(select(2, pcall(assert, false, {1}))))
print(pcall(assert, 1, 2, 3))
print(pcall(assert))
print(xpcall(function() error("boom") end, function(m) return "handled: " .. m end))
print(xpcall(function(a, b) return a + b end, print, 3, 4))
print(xpcall(function() local x = nil; return x.f end, function(m) return (m:gsub("^input:%d+: ", "")) end))
print(tostring(nil) .. "|", tostring(true), tostring(12), tostring(-0.0))
return e.code
