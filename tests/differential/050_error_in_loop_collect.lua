local inputs = { "10", "abc", "3.5", "", "0x1F", "1e2", " 7 ", "7x" }
local good, bad = {}, {}
for i, s in ipairs(inputs) do
  local ok, v = pcall(function()
    local n = tonumber(s)
    if n == nil then error("cannot parse '" .. s .. "'", 0) end
    return n * 2
  end)
  if ok then good[#good + 1] = v else bad[#bad + 1] = v end
end
print("good", table.concat(good, " "))
print("bad", table.concat(bad, " | "))
return { good = good, bad = bad }
