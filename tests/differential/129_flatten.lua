local function flatten(t, out, depth)
  out = out or {}
  depth = depth or 0
  for _, v in ipairs(t) do
    if type(v) == "table" then flatten(v, out, depth + 1) else out[#out + 1] = v end
  end
  return out
end
local nested = { 1, { 2, 3, { 4, { 5 } } }, {}, { { { 6 } } }, 7 }
local flat = flatten(nested)
print(#flat, table.concat(flat, ","))
local function chunk(t, n)
  local r = {}
  for i = 1, #t, n do r[#r + 1] = { table.unpack(t, i, math.min(i + n - 1, #t)) } end
  return r
end
local chunks = chunk(flat, 3)
for i, c in ipairs(chunks) do print(i, table.concat(c, " ")) end
return chunks
