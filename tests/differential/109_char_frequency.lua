local text = "Mississippi River banks"
local freq = {}
for i = 1, #text do
  local c = text:sub(i, i):lower()
  if c ~= " " then freq[c] = (freq[c] or 0) + 1 end
end
local list = {}
for c, n in pairs(freq) do list[#list + 1] = { c = c, n = n } end
table.sort(list, function(a, b) if a.n ~= b.n then return a.n > b.n end return a.c < b.c end)
local parts = {}
for i, e in ipairs(list) do parts[i] = e.c .. e.n end
print(table.concat(parts, " "))
return freq
