-- captures: nested, position captures, back-references
print(string.match("hello world", "((h)(e)(l+))"))
print(string.find("hello", "()ll()"))
print(string.match("hello", "()"))
print(string.match("abc", "a()b()c()"))
print(string.gsub("abc", "()", "%1"))
print(string.match('say "hi" and \'bye\'', "([\"'])(.-)%1"))
print(string.match("abab", "^(ab)%1$"), string.match("abac", "^(ab)%1$"))
print(string.find("xyz xyzxyz", "(xyz)%1"))
print(string.match("aaa", "(a*(.)%2)"))
print(string.match("key: value", "(%w+):%s*(.*)"))
print(string.match("2024-01-15T10:20:30Z", "^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d%d):(%d%d):(%d%d)"))
local t = {}
for k, v in ("a=1&b=2&c=3"):gmatch("(%w+)=(%w+)") do t[#t + 1] = k .. v end
print(table.concat(t, ","))
local caps = { string.match(string.rep("x", 32), string.rep("(.)", 32)) }
print(#caps)
return { string.find("[tag] rest", "^%[(%w+)%]%s*(.*)$") }
