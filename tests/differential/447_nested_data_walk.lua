local doc = {
  users = {
    {id = 1, name = "ann", roles = {"admin", "dev"}, meta = {age = 31, active = true}},
    {id = 2, name = "bob", roles = {}, meta = {age = 25, active = false}},
    {id = 3, name = "cyd", roles = {"dev"}, meta = {active = true}},
  },
  total = 3,
}
local function get(t, path)
  local cur = t
  for part in path:gmatch("[^.]+") do
    if type(cur) ~= "table" then return nil end
    local idx = tonumber(part)
    cur = cur[idx or part]
  end
  return cur
end
print(get(doc, "users.1.name"), get(doc, "users.2.meta.age"), get(doc, "users.3.meta.age"), get(doc, "users.9.name"), get(doc, "total.x"))
local paths = {}
local function walk(v, prefix)
  if type(v) ~= "table" then paths[#paths + 1] = prefix .. "=" .. tostring(v) return end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  for _, k in ipairs(keys) do walk(v[k], prefix == "" and tostring(k) or prefix .. "." .. tostring(k)) end
end
walk(doc, "")
print(#paths)
for i = 1, #paths do print(paths[i]) end
local active = {}
for _, u in ipairs(doc.users) do
  if u.meta.active then active[#active + 1] = u.name .. "(" .. (#u.roles > 0 and table.concat(u.roles, "+") or "none") .. ")" end
end
print(table.concat(active, ", "))
return paths
