local s = "héllo wörld ✓"
print(#s, utf8.len(s))
print(utf8.char(72, 233, 8364, 128512))
local cps = {}
for p, c in utf8.codes(s) do cps[#cps + 1] = p .. ":" .. c end
print(table.concat(cps, " "))
print(utf8.codepoint(s, 1, 3))
print(utf8.offset(s, 3), utf8.offset(s, -1), utf8.offset(s, 0, 3))
print(utf8.len("\xff"), utf8.len(""), utf8.len(s, 3))
print(utf8.charpattern == "[\0-\x7F\xC2-\xFD][\x80-\xBF]*")
return { utf8.len(s), utf8.codepoint("€") }
