local list = {3, 1, 2}
table.sort(list, function(a, b) return a.x < b.x end)
