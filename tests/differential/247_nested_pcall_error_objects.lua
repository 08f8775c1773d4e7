local function layer(n)
  if n == 0 then error({ depth = 0, trail = { "bottom" } }) end
  local ok, e = pcall(layer, n - 1)
  if type(e) == "table" then
    e.depth = e.depth + 1
    table.insert(e.trail, "layer" .. n)
  end
  error(e)
end
local ok, e = pcall(layer, 4)
print(ok, type(e), e.depth, table.concat(e.trail, ">"))
local ok2, e2 = pcall(error, { "y" })
print(ok2, type(e2), e2[1])
return e
