local x = 1
local out = {}
do
  local x = x + 1
  out[#out + 1] = x
  do
    local x = x * 10
    out[#out + 1] = x
  end
  out[#out + 1] = x
end
out[#out + 1] = x
local function f(x) x = x + 100; return x end
out[#out + 1] = f(x)
out[#out + 1] = x
for x = 5, 6 do out[#out + 1] = x end
out[#out + 1] = x
local x = "redeclared"
out[#out + 1] = x
print(table.concat(out, " "))
return out
