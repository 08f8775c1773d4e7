local function commas(n)
  local s = tostring(math.floor(math.abs(n)))
  local parts = {}
  local first = #s % 3
  if first > 0 then parts[#parts + 1] = s:sub(1, first) end
  for i = first + 1, #s, 3 do parts[#parts + 1] = s:sub(i, i + 2) end
  return (n < 0 and "-" or "") .. table.concat(parts, ",")
end
local vals = { 0, 7, 999, 1000, 123456, -1234567, 1000000000, math.maxinteger }
local r = {}
for i, v in ipairs(vals) do r[i] = commas(v); print(v, r[i]) end
return r
