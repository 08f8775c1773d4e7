local function ureverse(s)
  local chars = {}
  for _, c in utf8.codes(s) do table.insert(chars, 1, utf8.char(c)) end
  return table.concat(chars)
end
local words = { "abc", "naïve", "日本語", "" }
local out = {}
for i, w in ipairs(words) do
  out[i] = ureverse(w)
  print(w, utf8.len(w), #w, out[i])
end
print(pcall(utf8.codepoint, "\xff"))
print(utf8.len("abc\xe4def"))
print(pcall(utf8.char, -1))
return out
