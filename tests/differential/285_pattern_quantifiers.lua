-- greedy *, +, lazy -, optional ?, and back-tracking
local s = "<a><b></b></a>"
print(s:match("<(.*)>"), s:match("<(.-)>"), s:match("<(.+)>"))
print(("aaab"):match("a*"), ("aaab"):match("a+b"), ("b"):match("a*b"), ("b"):match("a+b"))
print(("aaab"):match("a-b"), ("aaab"):match("^a-"), ("color colour"):gsub("colou?r", "C"))
print(("12abc"):match("^(%d?)(%d?)(%d?)(%a*)$"))
print(("--x--"):match("^%-*(.-)%-*$"))
print(("/usr/local/bin/lua"):match("^(.*)/([^/]*)$"))
print(("file.tar.gz"):match("^(.-)%.(.*)$"))
print(("file.tar.gz"):match("^(.*)%.(.-)$"))
print(("aaa"):find("a-a"), ("aaa"):find(".-$"), ("abc"):find("b*"))
print(("  x"):find("%s*"), ("x"):find("%s*x%s*$"))
print(("one;two;;four"):gsub(";;", ";nil;"))
local fields = {}
for f in ("a,b,,d,"):gmatch("([^,]*)") do fields[#fields + 1] = "<" .. f .. ">" end
print(table.concat(fields))
return fields
