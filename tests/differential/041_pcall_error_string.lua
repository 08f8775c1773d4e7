local function risky(x)
  if x < 0 then error("negative input: " .. x) end
  return math.sqrt(x)
end
local results = {}
for _, v in ipairs({ 4, -1, 9, -7 }) do
  local ok, res = pcall(risky, v)
  print(v, ok, res)
  results[#results + 1] = ok and res or ("ERR " .. res)
end
return results
