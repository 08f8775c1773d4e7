local function split(s, sep, plain)
  local out, i = {}, 1
  while true do
    local a, b = s:find(sep, i, plain)
    if not a then out[#out + 1] = s:sub(i); break end
    out[#out + 1] = s:sub(i, a - 1)
    i = b + 1
  end
  return out
end
local function join(t, sep) return table.concat(t, sep) end
print(join(split("a,b,,c", ",", true), "|"), #split("", ","), join(split("a.b.c", ".", true), " "))
print(join(split("one  two   three", "%s+"), "|"))
local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
print("[" .. trim("  \t hi there \n ") .. "]")
local function startswith(s, p) return s:sub(1, #p) == p end
local function endswith(s, p) return p == "" or s:sub(-#p) == p end
print(startswith("hello", "he"), startswith("hello", "lo"), endswith("hello", "lo"), endswith("hello", ""))
local function pad_left(s, n, ch) return string.rep(ch or " ", n - #s) .. s end
print(pad_left("42", 6, "0"), pad_left("toolong", 3), ("%06.2f"):format(3.14159))
local function title(s) return (s:gsub("(%a)([%w_']*)", function(a, b) return a:upper() .. b:lower() end)) end
print(title("hello wORLD it's lua_5"))
local function count(s, sub) return select(2, s:gsub(sub:gsub("%p", "%%%0"), "")) end
print(count("a.b.c.d", "."), count("banana", "an"), count("aaa", "aa"))
local function escape_html(s) return (s:gsub("[<>&\"]", {["<"] = "&lt;", [">"] = "&gt;", ["&"] = "&amp;", ['"'] = "&quot;"})) end
print(escape_html('<a href="x">Tom & Jerry</a>'))
local function wrap(s, w)
  local lines, line = {}, ""
  for word in s:gmatch("%S+") do
    if #line + #word + 1 > w and #line > 0 then lines[#lines + 1] = line; line = word
    else line = #line > 0 and line .. " " .. word or word end
  end
  if #line > 0 then lines[#lines + 1] = line end
  return lines
end
print(join(wrap("the quick brown fox jumps over the lazy dog", 10), "/"))
print(("abc"):rep(2, "-"):upper():reverse(), ("x,y"):find(",", 1, true))
return split("k=v;k2=v2", ";")
