-- typical data-cleaning with patterns
local log = [[
2024-03-01 12:00:01 INFO user=alice action=login ms=12
2024-03-01 12:00:05 WARN user=bob action=upload ms=340
2024-03-01 12:01:10 ERROR user=alice action=upload ms=1500
2024-03-02 08:15:00 INFO user=carol action=login ms=8
]]
local by_level, total_ms, users = {}, 0, {}
for date, time, level, rest in log:gmatch("(%d+%-%d+%-%d+) (%d+:%d+:%d+) (%u+) ([^\n]*)") do
  by_level[level] = (by_level[level] or 0) + 1
  local fields = {}
  for k, v in rest:gmatch("(%w+)=(%S+)") do fields[k] = v end
  total_ms = total_ms + tonumber(fields.ms)
  users[fields.user] = true
end
local levels = {}
for k, v in pairs(by_level) do levels[#levels + 1] = k .. "=" .. v end
table.sort(levels)
print(table.concat(levels, " "), total_ms)
local names = {}
for u in pairs(users) do names[#names + 1] = u end
table.sort(names)
print(table.concat(names, ","))
local function split(s, sep)
  local out = {}
  for piece in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do out[#out + 1] = piece end
  return out
end
print(table.concat(split("a|b||c", "|"), ","), #split("a|b||c", "|"))
local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
print("[" .. trim("  \t padded \n ") .. "]")
local function slug(s) return (s:lower():gsub("[^%w]+", "-"):gsub("^%-+", ""):gsub("%-+$", "")) end
print(slug("  Hello, World! Lua 5.4 "))
local function commas(n)
  local s = tostring(n)
  local int, frac = s:match("^(%-?%d+)(.*)$")
  int = int:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^(%-?),", "%1")
  return int .. frac
end
print(commas(1234567), commas(-1234567.25), commas(100), commas(-123456))
local emails = {}
for e in ("contact: a.b@x.org, bad@, c_d@y.co.uk"):gmatch("[%w%._]+@[%w%.]+%.%a+") do emails[#emails + 1] = e end
print(table.concat(emails, ";"))
local camel = ("snake_case_name"):gsub("_(%a)", string.upper)
print(camel)
local snake = ("camelCaseName"):gsub("(%u)", function(c) return "_" .. c:lower() end)
print(snake)
print(("%d items"):format(select(2, ("a b c"):gsub("%S+", ""))))
return { levels = levels, total = total_ms }
