local nums = { 5, 3.5, -2, 10, 0, 7, 3.5, 42, -17, 1e3, 2^10 }
table.sort(nums)
print(table.concat(nums, " "))
table.sort(nums, function(a, b) return a > b end)
print(table.concat(nums, " "))
local words = { "pear", "Apple", "banana", "apple", "Banana", "cherry", "" }
table.sort(words)
print(table.concat(words, ","))
table.sort(words, function(a, b) return a:lower() < b:lower() or (a:lower() == b:lower() and a < b) end)
print(table.concat(words, ","))
return { nums = nums, words = words }
