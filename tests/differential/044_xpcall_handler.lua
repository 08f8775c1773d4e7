local function handler(err)
  return "handled: " .. tostring(err)
end
local function work(a, b)
  if b == 0 then error("division by zero requested", 0) end
  return a / b, a // b
end
print(xpcall(work, handler, 10, 4))
print(xpcall(work, handler, 1, 0))
print(xpcall(function() local t = nil; return t.field end, function(e) return "H<" .. e .. ">" end))
print(xpcall(function() return "fine", 2, 3 end, print))
local ok, v = xpcall(function() error({ n = 7 }) end, function(e) return e.n * 6 end)
print(ok, v)
return v
