local names = { "bob", "Alice", "alice", "Bob", "carol", "ALICE", "Dave", "bob" }
for i, n in ipairs(names) do names[i] = { n = n, i = i } end
table.sort(names, function(a, b)
  local la, lb = a.n:lower(), b.n:lower()
  if la ~= lb then return la < lb end
  if a.n ~= b.n then return a.n < b.n end
  return a.i < b.i
end)
local out = {}
for i, x in ipairs(names) do out[i] = x.n .. "#" .. x.i end
print(table.concat(out, " "))
return out
