local words = { "listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog" }
local groups, order = {}, {}
for _, w in ipairs(words) do
  local chars = {}
  for i = 1, #w do chars[i] = w:sub(i, i) end
  table.sort(chars)
  local key = table.concat(chars)
  if not groups[key] then groups[key] = {}; order[#order + 1] = key end
  table.insert(groups[key], w)
end
local out = {}
for _, k in ipairs(order) do
  out[#out + 1] = k .. ": " .. table.concat(groups[k], " ")
  print(out[#out])
end
return out
