-- pseudo-random patterns (a fixed LCG, no math.random) against short subjects: find, match, gsub
local seed = 12345
local function rnd(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
local pieces = { "a", "b", "c", ".", "%a", "%d", "%s", "%W", "[ab]", "[^a]", "[a-c]", "[%d(]", "*", "+", "-", "?",
  "(", ")", "()", "%1", "%2", "^", "$", "%b()", "%f[%a]", "%f[^%d]", "%%", "%(", " ", "1", "x" }
local chars = { "a", "b", "c", "(", ")", "1", "2", " ", "x" }
local function clean(e) return (tostring(e):gsub("^[^:]*:[%d:]+ ", "")) end
local function show(ok, ...)
  if not ok then return "E:" .. clean(...) end
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  return table.concat(t, ",", 1, t.n)
end
local out = {}
for case = 1, 700 do
  local p = {}
  for _ = 1, rnd(6) do p[#p + 1] = pieces[rnd(#pieces)] end
  p = table.concat(p)
  local s = {}
  for _ = 1, rnd(12) - 1 do s[#s + 1] = chars[rnd(#chars)] end
  s = table.concat(s)
  local init = rnd(5) - 2
  out[#out + 1] = case .. " " .. p .. " [" .. s .. "] " .. show(pcall(string.find, s, p, init))
    .. " | " .. show(pcall(string.match, s, p)) .. " | " .. show(pcall(string.gsub, s, p, "<%0>"))
  if #out == 50 then print(table.concat(out, "\n")) out = {} end
end
print(table.concat(out, "\n"))
return seed
