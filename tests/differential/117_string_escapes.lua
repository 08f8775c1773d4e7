local s = "tab:\t|nl:\\n|quote:\"|apos:\'|bs:\\|hex:\x41\x62|dec:\65\066\0671|u:\u{48}\u{e9}\u{20AC}"
print(s)
print(#"\z
      continued", "a\z   b")
local long = [[
first line
second "quoted" \n not an escape]]
print(long, #long)
local lvl = [==[contains ]] and ]=] inside]==]
print(lvl)
print("\104\101\108\108\111", '\'single\'', "\\")
print(#"\0\0\0", ("\0"):byte())
return { s, long, lvl }
