local fns = {}
for i, v in ipairs({ "a", "b", "c" }) do
  fns[#fns + 1] = function() return i .. v end
end
local r = {}
for _, f in ipairs(fns) do r[#r + 1] = f() end
print(table.concat(r, " "))
local pairsList = {}
local src = { x = 1, y = 2, z = 3 }
local keys = {}
for k in pairs(src) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do
  local v = src[k]
  pairsList[#pairsList + 1] = function() v = v * 10; return k .. v end
end
print(pairsList[1](), pairsList[1](), pairsList[2](), pairsList[3]())
local shared = {}
for i = 1, 2 do
  local count = 0
  shared[i] = { inc = function() count = count + 1 end, get = function() return count end }
end
shared[1].inc(); shared[1].inc(); shared[2].inc()
print(shared[1].get(), shared[2].get())
return r
