local trace = {}
local function level3() error("deep problem") end
local function level2()
  local ok, e = pcall(level3)
  trace[#trace + 1] = "l2 caught"
  error({ wrapped = e, at = "level2" })
end
local function level1()
  local ok, e = pcall(level1)
  trace[#trace + 1] = "l1 caught " .. e.at
  return e.wrapped
end
local res = level1()
print(res)
print(table.concat(trace, "; "))
local ok, a, b = pcall(pcall, function() error("x", 0) end)
print(ok, a, b)
return trace
