local function pretty(v, indent, out)
  indent = indent or ""
  out = out or {}
  if type(v) ~= "table" then
    out[#out + 1] = type(v) == "string" and string.format("%q", v) or tostring(v)
    return out
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) == "number" end
    return a < b
  end)
  if #keys == 0 then out[#out + 1] = "{}" return out end
  out[#out + 1] = "{\n"
  for i, k in ipairs(keys) do
    out[#out + 1] = indent .. "  " .. (type(k) == "number" and ("[" .. k .. "]") or k) .. " = "
    pretty(v[k], indent .. "  ", out)
    out[#out + 1] = i < #keys and ",\n" or "\n"
  end
  out[#out + 1] = indent .. "}"
  return out
end
local data = { name = "report", count = 3, ratio = 0.5, ok = true, tags = { "a", "b" }, meta = { owner = { id = 7 }, empty = {} } }
local s = table.concat(pretty(data))
print(s)
return s
