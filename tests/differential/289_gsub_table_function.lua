-- gsub with tables and functions; false/nil keep the match; numbers converted
local vars = { name = "Ada", age = 36, flag = false }
print(string.gsub("$name is $age ($flag, $missing)", "%$(%w+)", vars))
print(string.gsub("hello world", "%w+", { hello = "HI" }))
print(string.gsub("abc", "%w", { a = 1, b = 2.5, c = true and "C" }))
print(string.gsub("abc", "()", { [1] = "<", [4] = ">" }))
print(string.gsub("hello world", "%w+", function(w) return w:upper() end))
print(string.gsub("hello world", "%w+", function(w) if w == "world" then return nil end return "X" end))
print(string.gsub("a=1, b=2", "(%w+)=(%w+)", function(k, v) return v .. "=" .. k end))
print(string.gsub("1 2 3", "%d", function(d) return tonumber(d) * 10 end))
print(string.gsub("1 2 3", "%d", function(d) return tonumber(d) / 2 end))
print(string.gsub("abc", "", function() return "-" end))
print(string.gsub("abc", "()", function(p) return p end))
local count = 0
print(string.gsub("x y z", "%a", function(c) count = count + 1; return c .. count end, 2))
print(count)
local seen = {}
string.gsub("k1=v1;k2=v2", "(%w+)=(%w+)", function(k, v) seen[#seen + 1] = k .. ":" .. v end)
print(table.concat(seen, ","))
-- nested: the replacement function itself uses patterns
print(string.gsub("a-b c-d", "%S+", function(w) return (w:gsub("%-", "+")) end))
local escaped = string.gsub("a+b.c*d", "[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")
print(escaped, string.find("xx a+b.c*d", escaped))
local function template(s, env)
  return (s:gsub("{{%s*(%w+)%s*}}", function(k) return tostring(env[k]) end))
end
print(template("Hi {{ name }}, you have {{n}} items", { name = "Bo", n = 3 }))
return { string.gsub("url%20encoded%21", "%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end) }
