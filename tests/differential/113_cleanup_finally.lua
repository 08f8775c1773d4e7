local resources = {}
local function acquire(name) resources[#resources + 1] = name; return name end
local function release(name)
  for i = #resources, 1, -1 do
    if resources[i] == name then table.remove(resources, i) end
  end
end
local function with_resource(name, f)
  local r = acquire(name)
  local ok, err = pcall(f, r)
  release(r)
  if not ok then return nil, err end
  return err
end
print(with_resource("db", function(r) return r .. " used" end))
print(with_resource("file", function(r) error("failed on " .. r, 0) end))
print(#resources)
return #resources
