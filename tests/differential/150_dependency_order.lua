local deps = { app = { "lib", "util" }, lib = { "util", "core" }, util = { "core" }, core = {}, tests = { "app" } }
local order, state = {}, {}
local function visit(n, path)
  if state[n] == "done" then return end
  if state[n] == "visiting" then error("cycle: " .. table.concat(path, " -> ") .. " -> " .. n, 0) end
  state[n] = "visiting"
  path[#path + 1] = n
  local ds = deps[n]
  for _, d in ipairs(ds) do visit(d, path) end
  path[#path] = nil
  state[n] = "done"
  order[#order + 1] = n
end
local names = {}
for k in pairs(deps) do names[#names + 1] = k end
table.sort(names)
for _, n in ipairs(names) do visit(n, {}) end
print(table.concat(order, " "))
deps.core = { "app" }
state, order = {}, {}
print(pcall(visit, "tests", {}))
return order
