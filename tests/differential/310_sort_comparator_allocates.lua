-- A comparator that allocates on every call (strings, tables, closures): the collector runs
-- inside table.sort. `crates/codemode-lua/tests/differential.rs` also runs this under a small
-- memory cap, where the comparator's garbage (megabytes) only fits when it is collected.
local records = {}
for i = 1, 600 do
  local k = (i * 7919) % 601
  records[i] = { name = 'rec' .. k, n = k, tags = { 'a' .. i, 'b' .. i } }
end
local calls = 0
table.sort(records, function(a, b)
  calls = calls + 1
  local junk = { string.rep(a.name, 40), string.rep('y', 1500) .. b.name }
  local key = function() return #junk[1] + #junk[2] end
  if key() < 0 then error('impossible') end
  return a.n < b.n
end)
print('sorted', #records, calls > 600)
local names = {}
for i = 1, #records do names[#names + 1] = records[i].name end
print(names[1], names[2], names[300], names[600])
-- Strings as values, a descending comparator that builds a string per call.
local words = {}
for i = 1, 400 do words[i] = 'w' .. ((i * 37) % 401) end
table.sort(words, function(a, b)
  local s = table.concat({ a, '|', b, string.rep('-', 800) })
  return #s > 0 and a > b
end)
print(words[1], words[2], words[200], words[400])
return { first = records[1].tags, last = records[600].n, w = words[7] }
