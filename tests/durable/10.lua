local acc = {}
for i = 1, 3 do
  local ok, e = pcall(tools.orders.get, { id = i == 2 and "bad" or ("k" .. i) })
  acc[i] = ok and e.total or ("E:" .. tostring(e))
end
return acc
