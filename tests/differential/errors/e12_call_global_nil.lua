local data = { 3, 1, 2 }
table.sort(data)
print(table.concat(data, ","))
return summarize(data)
