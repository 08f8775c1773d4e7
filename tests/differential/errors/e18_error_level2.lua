local function need_string(v)
  if type(v) ~= "string" then
    error("expected a string, got " .. type(v), 2)
  end
  return v
end
print(need_string("ok"))
local x = need_string(42)
return x
