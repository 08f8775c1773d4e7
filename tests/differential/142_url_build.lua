local function encode(s)
  s = tostring(s)
  local out = {}
  for i = 1, #s do
    local c = s:sub(i, i)
    local b = c:byte()
    if (b >= 48 and b <= 57) or (b >= 65 and b <= 90) or (b >= 97 and b <= 122) or c == "-" or c == "_" or c == "." or c == "~" then
      out[#out + 1] = c
    else
      out[#out + 1] = string.format("%%%02X", b)
    end
  end
  return table.concat(out)
end
local function build(base, params)
  local keys = {}
  for k in pairs(params) do keys[#keys + 1] = k end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = encode(k) .. "=" .. encode(params[k]) end
  if #parts == 0 then return base end
  return base .. "?" .. table.concat(parts, "&")
end
local urls = {
  build("https://api.example.com/search", { q = "hello world", limit = 10, lang = "en/us" }),
  build("https://x.io", {}),
  build("/p", { ["a b"] = "c&d", z = 1.5, e = "é" }),
}
for _, u in ipairs(urls) do print(u) end
return urls
