local cfg
local function read_timeout() return cfg.timeout end
local results = {}
local function try(label, f)
  local ok, e = pcall(f)
  results[#results + 1] = label .. " -> " .. tostring(e)
  print(label, ok, e)
end
try("upvalue", read_timeout)
try("global field call", function() return string.foo("x") end)
try("call string field", function() local t = { name = "x" }; return t.name() end)
try("index number", function() local n = 5; return n.x end)
try("length of number", function() local n = 5; return #n end)
try("compare chain", function() return 1 < 2 < 3 end)
try("method on number", function() local n = 5; return n:rep(2) end)
try("index upvalue field", function() return cfg.a.b end)
try("call result", function() local function f() return nil end; return f()() end)
try("arith on field", function() local t = {}; return t.count + 1 end)
try("arith on upvalue", function() return cfg + 1 end)
try("concat field", function() local t = { a = {} }; return "x" .. t.a end)
try("index via bracket", function() local t = {}; local k = "key"; return t[k].x end)
try("global arith", function() return missing_total * 2 end)
return results
