local old = { { id = 1, name = "a", v = 1 }, { id = 2, name = "b", v = 2 }, { id = 3, name = "c", v = 3 } }
local new = { { id = 2, name = "b", v = 20 }, { id = 3, name = "c", v = 3 }, { id = 4, name = "d", v = 4 } }
local function index(list) local m = {} for _, r in ipairs(list) do m[r.id] = r end return m end
local o, n = index(old), index(new)
local added, removed, changed = {}, {}, {}
for id, r in pairs(n) do
  if not o[id] then added[#added + 1] = id
  elseif o[id].v ~= r.v or o[id].name ~= r.name then changed[#changed + 1] = id end
end
for id in pairs(o) do if not n[id] then removed[#removed + 1] = id end end
table.sort(added); table.sort(removed); table.sort(changed)
print("added", table.concat(added, ","), "removed", table.concat(removed, ","), "changed", table.concat(changed, ","))
return { added = added, removed = removed, changed = changed }
