-- gmatch: loops over words, pairs, lines, CSV, empty matches, init
local words = {}
for w in ("The quick brown fox"):gmatch("%a+") do words[#words + 1] = w:lower() end
print(table.concat(words, " "))
local kv = {}
for k, v in ("a=1, b=22, c=333"):gmatch("(%w+)=(%d+)") do kv[#kv + 1] = k .. "->" .. v end
print(table.concat(kv, " "))
local lines = {}
for line in ("line1\nline2\n\nline4"):gmatch("[^\n]*") do lines[#lines + 1] = "[" .. line .. "]" end
print(table.concat(lines))
local lines2 = {}
for line in ("l1\nl2\n"):gmatch("(.-)\n") do lines2[#lines2 + 1] = line end
print(#lines2, lines2[1], lines2[2])
local e = {}
for m in ("abc"):gmatch("") do e[#e + 1] = "<" .. m .. ">" end
print(#e, table.concat(e))
local e2 = {}
for m in ("abc"):gmatch("b*") do e2[#e2 + 1] = "<" .. m .. ">" end
print(#e2, table.concat(e2))
local pos = {}
for p, c in ("hello"):gmatch("()(l)") do pos[#pos + 1] = p .. c end
print(table.concat(pos, ","))
local from = {}
for w in string.gmatch("one two three", "%a+", 5) do from[#from + 1] = w end
print(table.concat(from, ","))
local neg = {}
for w in string.gmatch("one two three", "%a+", -5) do neg[#neg + 1] = w end
print(table.concat(neg, ","))
local none = 0
for _ in string.gmatch("abc", ".", 10) do none = none + 1 end
print(none)
local caret = {}
for m in ("^a^b"):gmatch("^%a") do caret[#caret + 1] = m end
print(table.concat(caret, ","))
local nums, sum = {}, 0
for n in ("prices: 10, 20.5, -3, 1e2"):gmatch("%-?%d+%.?%d*e?%d*") do
  nums[#nums + 1] = n
  sum = sum + tonumber(n)
end
print(table.concat(nums, " "), sum)
local rows = {}
for row in ("id,name\n1,ann\n2,bob\n"):gmatch("[^\n]+") do
  local cols = {}
  for c in row:gmatch("[^,]+") do cols[#cols + 1] = c end
  rows[#rows + 1] = cols
end
print(#rows, rows[2][2], rows[3][1])
local n = 0
for a, b in string.gmatch("abcd", "(a)(b)") do n = n + 1 end
print(n)
return rows
