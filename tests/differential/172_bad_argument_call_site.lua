local results = {}
local function try(label, f)
  local ok, e = pcall(f)
  results[#results + 1] = label .. ": " .. tostring(e)
  print(label, ok, e)
end
try("rep", function() return string.rep(nil, 3) end)
try("upper", function() return string.upper() end)
try("sub", function() local s = string.sub; return s({}) end)
try("method", function() local s = "x"; return s:rep({}) end)
try("insert", function() table.insert({}, 1, 2, 3) end)
try("floor", function() return math.floor("x") end)
try("tostring", function() return tostring() end)
try("concat", function() return table.concat({ {} }) end)
return results
