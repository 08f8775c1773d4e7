-- %b and %f
print(string.match("call(f(a, b), g(c)) tail", "%b()"))
print(string.gsub("a (b (c) d) e (f)", "%b()", "[]"))
print(string.match("{\"a\": {\"b\": 1}}", "%b{}"))
print(string.match("x = [[long]]", "%b[]"))
print(string.match("unbalanced (a (b)", "%b()"))
print(string.find("no parens", "%b()"))
print(string.match("'quoted' rest", "%b''"))
print(string.gsub("THE (quick) fox", "%f[%a]%a+", "W"))
print(string.gsub("hello world from lua", "%f[%w]%w+", function(w) return w:sub(1, 1):upper() .. w:sub(2) end))
print(string.find("THE (quick) fox", "%f[%l]"))
print(string.gsub("the cat concatenated cats", "%f[%w]cat%f[%W]", "dog"))
print(string.find("abc", "%f[%z]"), string.find("abc", "%f[^%z]"))
print(string.match("key1=val1;key2=val2", "%f[%w]key2=(%w+)"))
local words = {}
for w in ("one, two;three  four"):gmatch("%f[%a]%a+%f[%A]") do words[#words + 1] = w end
print(table.concat(words, "/"))
return words
