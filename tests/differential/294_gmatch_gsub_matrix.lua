-- gmatch and gsub with function and table replacements over a matrix of patterns and subjects
local patterns = {
  "", "a", "^a", "a$", "^$", ".", "..", "a*", "a+", "a-", "a?", "^a*$", "a-b", "a.-b", "[ab]+", "[^ab]+",
  "[a-c]*d", "%a+", "%A+", "%d%d?", "%s+", "%S+", "%w+%p", "%x+", "%u%l+", "%c", "%g+", "%p+",
  "(a)(b)", "(a*)(b*)", "()a()", "((a)(b))", "(a)%1", "(.)%1", "(%a+) (%1)", "%b()", "%b[]", "%bab",
  "%f[%a]%a+", "%f[%d]", "%f[^%w]", "[%]]", "[]a]", "[^]a]+", "[a-]", "[%a-]+", "x*$", "^(.-)%s*$",
  "(.-)b", "(.*)b", "a.*", ".-$", "[%w_]+=[^;]*", "%$%w+", "%.", "%%", "^%-?%d+%.?%d*$", "(%d+)-(%d+)",
  "[", "(", ")", "%", "%b", "%f", "%1", "(()", "[a-%%]", "[%a-z]+",
}
local subjects = {
  "", "a", "ab", "aab", "abab", "ba", "hello world", "f(a(b)c)d", "[x] y", "x=1;y=22;z=",
  "-12.5", "  pad  ", "Title Case Words", "a\0b", "$var and $other", "100%", "aaa", "xyz",
}
local function show(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  return table.concat(t, ",", 1, t.n)
end
local function clean(e) return (tostring(e):gsub("^[^:]*:[%d:]+ ", "")) end
local lines = 0
for pi, p in ipairs(patterns) do
  local row = {}
  for si, s in ipairs(subjects) do
    local ok1, r1 = pcall(function()
      local out, n = {}, 0
      for a, b in string.gmatch(s, p) do
        n = n + 1
        if n > 50 then break end
        out[#out + 1] = show(a, b)
      end
      return table.concat(out, "/")
    end)
    local ok2, r2 = pcall(function()
      return show(string.gsub(s, p, function(a, b) if a == "a" then return nil end return "{" .. tostring(a) .. "}" end))
    end)
    local ok3, r3 = pcall(function() return show(string.gsub(s, p, { a = "A", b = false, [""] = "E", [1] = "one" })) end)
    local ok4, r4 = pcall(function() return show(string.gsub(s, p, "%1-%%")) end)
    row[#row + 1] = si .. ":" .. (ok1 and r1 or "E " .. clean(r1)) .. "|" .. (ok2 and r2 or "E " .. clean(r2))
      .. "|" .. (ok3 and r3 or "E " .. clean(r3)) .. "|" .. (ok4 and r4 or "E " .. clean(r4))
  end
  print(pi, p, table.concat(row, " ; "))
  lines = lines + 1
end
return lines
