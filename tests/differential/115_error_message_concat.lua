local function get(t, path)
  local cur = t
  for i = 1, #path do
    local k = path[i]
    if type(cur) ~= "table" then
      error(string.format("path %s: segment %d (%s) is not a table but a %s",
        table.concat(path, "."), i, tostring(k), type(cur)), 2)
    end
    cur = cur[k]
  end
  return cur
end
local data = { a = { b = { c = 42 } }, s = "text" }
print(get(data, { "a", "b", "c" }))
local ok, e = pcall(function() local v = get(data, { "s", "x", "y" }); return v end)
print(ok, e)
ok, e = pcall(get, data, { "a", "b", "c", "d" })
print(ok, e)
return e
