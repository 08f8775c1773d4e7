local vals = { 42, 3.5, true, false, "str", { k = "v" } }
local out = {}
for i, v in ipairs(vals) do
  local ok, e = pcall(error, v)
  local desc = type(e) == "table" and ("table k=" .. e.k) or tostring(e)
  out[i] = type(e) .. ":" .. desc
  print(ok, out[i], rawequal(e, v))
end
local ok, e = pcall(error)
print(ok, e, type(e))
return out
