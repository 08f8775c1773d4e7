local items = { 3, 1, 2 }
print(#items)
table.sort(items, function(a, b)
  return a.rank < b.rank
end)
