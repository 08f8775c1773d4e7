print(pcall(assert, false))
print(pcall(assert, nil, "custom message"))
print(pcall(assert, 1 == 2, "math is broken"))
print(assert(42, "unused"))
print(select("#", assert(1, 2, 3)))
local ok, e = pcall(assert, false, { reason = "table" })
print(type(e), e.reason)
print(pcall(assert))
local function parse(s)
  local n = tonumber(s)
  assert(n, "not a number: " .. s)
  return n
end
print(pcall(parse, "12"), pcall(parse, "x1"))
return e.reason
