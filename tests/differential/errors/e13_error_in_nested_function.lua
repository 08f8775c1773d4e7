local function parse(s)
  local n = tonumber(s)
  if not n then
    error("cannot parse number from '" .. s .. "'")
  end
  return n
end
local function total(list)
  local s = 0
  for _, v in ipairs(list) do s = s + parse(v) end
  return s
end
print(total({ "1", "2" }))
return total({ "1", "x" })
