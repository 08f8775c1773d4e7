local s = "hello world"
local counts, order = {}, {}
for i = 1, #s do
  local c = s:sub(i, i)
  if not counts[c] then order[#order + 1] = c end
  counts[c] = (counts[c] or 0) + 1
end
local parts = {}
for _, c in ipairs(order) do parts[#parts + 1] = (c == " " and "_" or c) .. counts[c] end
print(table.concat(parts, " "))
local vowels = 0
for i = 1, #s do
  if ("aeiou"):find(s:sub(i, i), 1, true) then vowels = vowels + 1 end
end
print("vowels", vowels)
local first_repeat
for i = 1, #s do
  local c = s:sub(i, i)
  if s:find(c, i + 1, true) then first_repeat = c break end
end
print("first repeat", first_repeat)
return counts
