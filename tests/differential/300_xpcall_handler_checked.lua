-- xpcall checks its message handler before calling anything (a model passing a non-function).
local function strip(e) return (tostring(e):gsub("^[^:]*:[%d:]+ ", "")) end
local out = {}
for _, h in ipairs({5, "handler", {}, true}) do
  local ok, e = pcall(xpcall, error, h)
  print(ok, strip(e))
  out[#out + 1] = strip(e)
end
local ok, e = pcall(xpcall, error)
print(ok, strip(e))
local called = false
ok, e = pcall(xpcall, function() called = true end, nil)
print(ok, strip(e), called)
return out
