local inputs = { "ok", "caf\xc3\xa9", "bad\xff", "trunc\xe2\x82", "\xc0\x80", "" }
for i, s in ipairs(inputs) do
  local n, pos = utf8.len(s)
  local ok, err = pcall(function()
    local cps = {}
    for _, c in utf8.codes(s) do cps[#cps + 1] = c end
    return #cps
  end)
  print(i, n, pos, ok, ok and err or (err:find("invalid UTF-8", 1, true) ~= nil))
end
print(utf8.len("héllo", -3), utf8.len("héllo", 1, -1))
print(pcall(utf8.len, "abc", 5))
return utf8.len("añb")
