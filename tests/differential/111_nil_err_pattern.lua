local function find_user(db, id)
  if type(id) ~= "number" then return nil, "id must be a number" end
  local u = db[id]
  if not u then return nil, "user " .. id .. " not found" end
  return u
end
local db = { [1] = { name = "ann" }, [7] = { name = "bob" } }
local out = {}
for _, id in ipairs({ 1, 2, "x", 7 }) do
  local u, err = find_user(db, id)
  if u then out[#out + 1] = u.name else out[#out + 1] = "error: " .. err end
  print(id, u and u.name, err)
end
return out
