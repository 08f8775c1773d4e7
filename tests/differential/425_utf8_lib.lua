local s = "héllo wörld €😀"
print(#s, utf8.len(s), utf8.char(72, 228, 8364, 128512), #utf8.charpattern)
local cps = {}
for p, c in utf8.codes(s) do cps[#cps + 1] = p .. ":" .. c end
print(table.concat(cps, " "))
print(utf8.codepoint(s, 1, -1))
print(utf8.codepoint(s, 2), pcall(utf8.codepoint, s, 3))
print(utf8.offset(s, 3), utf8.offset(s, -1), utf8.offset(s, 0, 3), utf8.offset(s, 100))
print(utf8.len("\xff")); print(utf8.len("abc\xe4")); print(utf8.len(s, 3)); print(utf8.len(s, -4))
print(pcall(utf8.len, s, 100))
print(utf8.len(""), utf8.char(), utf8.len("abc", 4))
local chars = {}
for ch in s:gmatch(utf8.charpattern) do chars[#chars + 1] = ch end
print(#chars, chars[2], chars[#chars])
local rev = {}
for i = #chars, 1, -1 do rev[#rev + 1] = chars[i] end
print(table.concat(rev))
print(pcall(utf8.char, -1), pcall(utf8.char, 0x80000000))
print(select("#", utf8.codes("\xff")), (pcall(utf8.codes, "\xff")))
local ok, err = pcall(function() for p, c in utf8.codes("ab\xffcd") do end end)
print(ok, err)
print(utf8.codepoint("\u{7FF}\u{800}"), "\u{48}\u{49}")
local function utf8_sub(str, i, j)
  local bi = utf8.offset(str, i)
  local bj = utf8.offset(str, j + 1)
  return str:sub(bi, (bj or #str + 1) - 1)
end
print(utf8_sub(s, 2, 5), utf8_sub(s, 13, 14))
return cps
