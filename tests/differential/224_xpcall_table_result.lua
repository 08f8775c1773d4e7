local function handler(e)
  if type(e) == "table" then return { handled = true, code = e.code } end
  return { handled = true, message = e }
end
local ok, r = xpcall(function() error({ code = 42 }) end, handler)
print(ok, r.handled, r.code)
ok, r = xpcall(function() error("boom", 0) end, handler)
print(ok, r.handled, r.message)
ok, r = xpcall(function(a, b) return a + b end, handler, 2, 3)
print(ok, r)
ok, r = xpcall(function() local x = {} ; return x.y.z end, handler)
print(ok, r.message)
print(pcall(xpcall))
print(select("#", xpcall(function() return 1, 2, 3 end, handler)))
return r
