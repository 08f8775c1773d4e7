local function check(v)
  if type(v) ~= "number" then
    error("expected number, got " .. type(v), 2)
  end
  return v
end
local function caller() local v = check("x"); return v end
local function tailcaller() return check("y") end
print(pcall(caller))
print(pcall(tailcaller))
print(pcall(error, "level zero", 0))
print(pcall(function() error("plain") end))
print(pcall(function() error("no position", 0) end))
print(pcall(function() error() end))
print(pcall(function() error(nil) end))
print(pcall(function() error(42) end))
print(pcall(function() error(4.5, 1) end))
print(pcall(function() error(true) end))
return "done"
