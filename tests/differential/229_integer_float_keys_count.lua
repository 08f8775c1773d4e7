local t = {}
local keys = { 1, 1.0, 2, "2", 2.5, "1", 3.0, -0.0, 0 }
for _, k in ipairs(keys) do t[k] = (t[k] or 0) + 1 end
local list = {}
for k, v in pairs(t) do list[#list + 1] = { k = k, v = v } end
table.sort(list, function(a, b)
  if type(a.k) ~= type(b.k) then return type(a.k) < type(b.k) end
  return a.k < b.k
end)
local out = {}
for i, e in ipairs(list) do out[i] = type(e.k) .. ":" .. tostring(e.k) .. "=" .. e.v end
print(table.concat(out, " "))
return t
