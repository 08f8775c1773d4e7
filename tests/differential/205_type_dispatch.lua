local function describe(v)
  local t = type(v)
  if t == "number" then
    return (math.type(v) == "integer" and "int " or "float ") .. tostring(v)
  elseif t == "string" then return "string(" .. #v .. ") " .. v
  elseif t == "table" then
    local n = 0
    for _ in pairs(v) do n = n + 1 end
    return "table with " .. n .. " entries, length " .. #v
  elseif t == "function" then return "function"
  elseif t == "nil" then return "nil"
  end
  return t .. " " .. tostring(v)
end
local samples = { 1, 1.0, "hi", { 1, 2, x = 3 }, print, true, false }
local r = {}
for i = 1, 8 do
  r[i] = describe(samples[i])
  print(i, r[i])
end
return r
