local inputs = { 4, 0, -2, 9, "x", 16, 25 }
local out, errors = {}, 0
for i, v in ipairs(inputs) do
  local ok, res = pcall(function()
    if type(v) ~= "number" then error("not a number", 0) end
    if v < 0 then error("negative", 0) end
    return math.sqrt(v)
  end)
  if not ok then
    errors = errors + 1
    if errors > 2 then print("too many errors, stopping at", i) break end
    goto continue
  end
  out[#out + 1] = res
  ::continue::
end
print(#out, table.concat(out, " "), errors)
return out
