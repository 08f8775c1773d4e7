local out = {}
for _, o in ipairs(tools.orders.list()) do
  local ok, r = pcall(tools.orders.get, { id = o.id })
  if ok then out[#out + 1] = r.id .. "=" .. r.total else print("failed: " .. r) end
end
return table.concat(out, ",")
