local cps = { 65, 127, 128, 255, 2047, 2048, 65535, 65536, 1114111 }
local s = utf8.char(table.unpack(cps))
print(#s, utf8.len(s))
local back = { utf8.codepoint(s, 1, -1) }
local same = #back == #cps
for i = 1, #cps do if back[i] ~= cps[i] then same = false end end
print(same)
local offs = {}
for i = 1, utf8.len(s) do offs[i] = utf8.offset(s, i) end
print(table.concat(offs, " "))
print(utf8.char(), utf8.char(0x48, 0x49))
return back
