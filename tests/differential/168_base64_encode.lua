local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local function b64(data)
  local out = {}
  for i = 1, #data, 3 do
    local a, b, c = data:byte(i, i + 2)
    local n = (a << 16) | ((b or 0) << 8) | (c or 0)
    local chars = {}
    for j = 3, 0, -1 do
      local idx = (n >> (j * 6)) & 63
      chars[#chars + 1] = alphabet:sub(idx + 1, idx + 1)
    end
    if not b then chars[3], chars[4] = "=", "="
    elseif not c then chars[4] = "=" end
    out[#out + 1] = table.concat(chars)
  end
  return table.concat(out)
end
local r = {}
for _, s in ipairs({ "", "f", "fo", "foo", "foob", "fooba", "foobar", "Code Mode!" }) do
  r[#r + 1] = b64(s)
  print(string.format("%-12s %s", "\"" .. s .. "\"", r[#r]))
end
return r
