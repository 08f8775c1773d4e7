local msgs = {}
local function try(f)
  local ok, e = pcall(f)
  msgs[#msgs + 1] = e
  print(ok, e)
end
try(function() local t = nil; return t.x end)
try(function() local t = {}; return t.a.b end)
try(function() return undefinedGlobal.field end)
try(function() undefinedFunction() end)
try(function() local s = "x"; return s + 1 end)
try(function() local n; return n + 1 end)
try(function() return {} .. "x" end)
try(function() return #nil end)
try(function() local t = {}; t.method() end)
try(function() return 1 < "2" end)
try(function() return {} < {} end)
try(function() return -{} end)
try(function() local cfg = { opts = {} }; return cfg.opts.deep.value end)
return msgs
