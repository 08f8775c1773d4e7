local s = "abc ABC 123 _-+ \t\n xyz!"
local classes = {"%a", "%d", "%l", "%u", "%s", "%w", "%p", "%c", "%x", "%A", "%D", "%S", "%W", "%P", "[%a_]", "[^%s]", "[a-c]", "[%-+]", "[]]", "[^]]", "."}
local out = {}
for _, c in ipairs(classes) do
  local n = select(2, s:gsub(c, ""))
  out[#out + 1] = c .. "=" .. n
end
print(table.concat(out, " "))
print(("THE (quick) fox"):find("%((%a+)%)"))
print(("f(a(b)c)d"):match("%b()"), ("[[x]]"):match("%b[]"), ("no"):match("%b()"))
print(("THE (quick) fox"):gsub("%f[%a]%a+", function(w) return w:lower() end))
print(("hello world"):gsub("%f[%w]%w+", string.upper))
print(("the cat in the hat"):gsub("%f[%a]the%f[%A]", "a"))
print(("aaa"):match("a-"), ("aaa"):match("a-$"), ("aaa"):match("^a*"), ("aaab"):match("a+b"))
print(("  x"):match("^%s*()"), ("abc"):match("^(a)(b)(c)$"))
print(("a.b"):match("^(.-)%.(.*)$"))
print(("2024-01-02T10:20:30Z"):match("^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d+):(%d+):(%d+)Z$"))
print(("key: value with spaces"):match("^(%w+):%s*(.+)$"))
print(("[INFO] started"):match("^%[(%u+)%]%s+(.*)"))
print(("user@example.com"):match("^[%w._%-]+@[%w.-]+%.%a+$"))
print(("%d"):find("%%d"), ("a^b"):find("^", 1, true), ("a^b"):find("a^"))
print(("hello"):match("(h)(e)(l)(l)(o)"))
print(("x=1"):match("(%w)=(%d)()"))
return out
