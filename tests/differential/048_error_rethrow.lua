local log = {}
local function inner() error("inner failure") end
local function middle()
  local ok, e = pcall(inner)
  if not ok then
    log[#log + 1] = "middle saw: " .. e
    error("middle wrapped (" .. e .. ")", 0)
  end
end
local function outer()
  local ok, e = pcall(middle)
  log[#log + 1] = "outer saw: " .. tostring(e)
  return ok
end
print(outer())
for _, l in ipairs(log) do print(l) end
return log
