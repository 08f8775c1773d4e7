-- invalid order functions: Lua raises "invalid order function for sorting" for some inputs
local results = {}
local function try(label, t, cmp)
  local ok, err = pcall(table.sort, t, cmp)
  local s = label .. ": " .. tostring(ok)
  if not ok then s = s .. " " .. (type(err) == "table" and "table code=" .. tostring(err.code) or tostring(err)) end
  results[#results + 1] = s
  print(s)
end
local big = {}
for i = 1, 100 do big[i] = (i * 37) % 11 end
try("le", big, function(a, b) return a <= b end)
local same = {}
for i = 1, 50 do same[i] = 5 end
try("always true", same, function(a, b) return true end)
local t3 = {}
for i = 1, 20 do t3[i] = i end
try("always true 20", t3, function(a, b) return true end)
try("error in cmp", {3, 1, 2}, function(a, b) error("cmp failed") end)
try("error table", {3, 1, 2}, function(a, b) error({code = 1}) end)
try("compare nil", {3, 1, 2}, function(a, b) return a.x < b.x end)
local small = {2, 1}
try("small true", small, function() return true end)
return results
