local text = "the quick brown fox jumps over the lazy dog the fox barks and the dog runs"
local freq = {}
local pos = 1
while pos <= #text do
  local sp = text:find(" ", pos, true) or (#text + 1)
  local w = text:sub(pos, sp - 1)
  if #w > 0 then freq[w] = (freq[w] or 0) + 1 end
  pos = sp + 1
end
local list = {}
for w, c in pairs(freq) do list[#list + 1] = { w = w, c = c } end
table.sort(list, function(a, b)
  if a.c ~= b.c then return a.c > b.c end
  return a.w < b.w
end)
local top = {}
for i = 1, 4 do
  top[i] = list[i].w .. "=" .. list[i].c
end
print(table.concat(top, " "))
print("distinct", #list)
return top
