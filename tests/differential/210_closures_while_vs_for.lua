local a = {}
local i = 1
while i <= 3 do
  a[i] = function() return i end
  i = i + 1
end
local b = {}
for j = 1, 3 do b[j] = function() return j end end
local c = {}
local k = 1
repeat
  local kk = k
  c[k] = function() return kk end
  k = k + 1
until k > 3
print(a[1](), a[2](), a[3](), b[1](), b[2](), b[3](), c[1](), c[2](), c[3]())
return { a[1](), b[1](), c[1]() }
