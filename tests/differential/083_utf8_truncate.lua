local function truncate(s, n)
  if utf8.len(s) <= n then return s end
  local cut = utf8.offset(s, n + 1)
  return s:sub(1, cut - 1) .. "…"
end
local inputs = { "short", "exactly ten", "ünïcödé strings are fun", "😀😀😀😀😀😀" }
local out = {}
for i, s in ipairs(inputs) do
  out[i] = truncate(s, 5)
  print(string.format("%-30s -> %s (%d)", s, out[i], utf8.len(out[i])))
end
return out
