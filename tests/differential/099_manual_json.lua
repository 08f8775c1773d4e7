local function encode(v, indent)
  local t = type(v)
  if t == "table" then
    if #v > 0 or next(v) == nil then
      local parts = {}
      for i = 1, #v do parts[i] = encode(v[i]) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = '"' .. k .. '":' .. encode(v[k]) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif t == "string" then
    return '"' .. v .. '"'
  elseif t == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.14g", v)
  else
    return tostring(v)
  end
end
local doc = { name = "codemode", version = 1, tags = { "lua", "rust" }, ratio = 0.5,
  nested = { ok = true, list = { 1, 2, { x = 3 } } }, empty = {} }
local s = encode(doc)
print(s)
print(#s)
return s
