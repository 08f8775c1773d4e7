local line = "alpha beta gamma"
local it = line:gmatch("%a+")
local first = it()
local second = it()
print(first, second, it(), it())
local firstword = ("  hello world"):gmatch("%S+")()
print(firstword)
local n = 0
local iter = ("a1b2c3"):gmatch("(%a)(%d)")
while true do
  local k, v = iter()
  if not k then break end
  n = n + tonumber(v)
end
print(n)
print(type(it), select('#', line:gmatch("x")), select('#', it()))
local a, b = string.gmatch("k=v", "(%w+)=(%w+)")()
print(a, b)
local words = {}
local next_word = ("one two three"):gmatch("%a+")
for w in next_word do words[#words + 1] = w end
print(table.concat(words, ","), next_word())
local ok, err = pcall(function() local bad = ("abc"):gmatch("(")
  return bad()
end)
print(ok, err)
print(pcall(string.gmatch))
print(pcall(string.gmatch, "x"))
print(pcall(string.gmatch, nil, "x"))
local ok2, err2 = pcall(function()
  for w in ("abc"):gmatch("%") do end
end)
print(ok2, err2)
local its = {}
for i = 1, 3 do its[i] = ("x1y2z3"):gmatch("%d") end
print(its[3](), its[1](), its[1](), its[2]())
local one = ("a,b"):gmatch("[^,]+")
print(pcall(one), pcall(one), pcall(one))
return first, second, n
