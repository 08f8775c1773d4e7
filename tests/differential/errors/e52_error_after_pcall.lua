local function f()
  error("fail here")
end
local ok = pcall(f)
print(ok)
f()
