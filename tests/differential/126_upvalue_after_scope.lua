local getters = {}
do
  local secret = "hidden"
  getters.get = function() return secret end
  getters.set = function(v) secret = v end
end
print(getters.get())
getters.set("changed")
print(getters.get())
local fs = {}
for i = 1, 3 do
  local v = i * 10
  fs[i] = { get = function() return v end, inc = function() v = v + 1 end }
end
fs[2].inc(); fs[2].inc()
print(fs[1].get(), fs[2].get(), fs[3].get())
local function outer()
  local x = 0
  local function mid()
    local function inner() x = x + 1; return x end
    return inner
  end
  return mid(), function() return x end
end
local inc, read = outer()
inc(); inc(); inc()
print(read())
return read()
