local function sorted_pairs(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, t[k] end
  end
end
local t = { zeta = 1, alpha = 2, [3] = "three", [1] = "one", mid = 3, [2.5] = "x" }
local out = {}
for k, v in sorted_pairs(t) do
  out[#out + 1] = tostring(k) .. "=" .. tostring(v)
end
print(table.concat(out, ", "))
return out
