local text = [[The quick brown fox. The lazy dog! the FOX, the dog; and THE end.
Numbers 42 and 3.14 aren't words, but don't stop "quotes".]]
local freq = {}
for w in text:lower():gmatch("[%a']+") do freq[w] = (freq[w] or 0) + 1 end
local words = {}
for w, c in pairs(freq) do words[#words + 1] = {w = w, c = c} end
table.sort(words, function(a, b) if a.c ~= b.c then return a.c > b.c end return a.w < b.w end)
local top = {}
for i = 1, 5 do top[i] = words[i].w .. "=" .. words[i].c end
print(table.concat(top, ", "))
local sentences = 0
for _ in text:gmatch("[.!?;]") do sentences = sentences + 1 end
print(sentences, #words, select(2, text:gsub("%d+", "%0")))
local caps = {}
for w in text:gmatch("%f[%w]%u+%f[%W]") do caps[#caps + 1] = w end
print(table.concat(caps, " "))
return top
