local vals = { 0, 1, -1, 42, math.maxinteger, math.mininteger, 1e15, 2^53, -2^53, 123.0, 0.1, 1e100 }
local out = {}
for i, v in ipairs(vals) do
  local s = tostring(v)
  local back = tonumber(s)
  out[i] = string.format("%s -> %s %s %s", s, tostring(back), math.type(back), tostring(back == v))
end
print(table.concat(out, "\n"))
print(math.tointeger(tonumber("9007199254740993")), tonumber("9007199254740993.0"))
return out
