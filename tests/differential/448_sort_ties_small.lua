-- ties under a comparator that looks at one field only: the order of tied records is whatever
-- lua5.4's quicksort produces (deterministic below 100 elements)
local recs = {}
for i = 1, 40 do recs[i] = {name = "r" .. i, score = (i * 7) % 5} end
table.sort(recs, function(a, b) return a.score > b.score end)
local names = {}
for i, r in ipairs(recs) do names[i] = r.name end
print(table.concat(names, " "))
local words = {"pear", "fig", "apple", "kiwi", "plum", "date", "lime", "sloe", "yuzu", "akee"}
table.sort(words, function(a, b) return #a < #b end)
print(table.concat(words, " "))
local pairs_ = {}
for i = 1, 12 do pairs_[i] = {k = i % 3, v = i} end
table.sort(pairs_, function(a, b) return a.k < b.k end)
local vs = {}
for i, p in ipairs(pairs_) do vs[i] = p.k .. ":" .. p.v end
print(table.concat(vs, " "))
return names
