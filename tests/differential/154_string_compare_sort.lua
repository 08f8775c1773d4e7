local words = { "banana", "Apple", "apple", "cherry", "apple pie", "Banana", "123", "_x", "~z", "a" }
table.sort(words)
print(table.concat(words, "|"))
print("a" < "b", "a" < "B", "abc" < "abd", "ab" < "abc", "" < " ", "Z" < "a", "10" < "9")
print(("a"):rep(3) == "aaa", "x" .. "y" == "xy", "abc" ~= "abc ")
local byLen = { "ccc", "a", "bb", "dd", "e" }
table.sort(byLen, function(x, y) if #x ~= #y then return #x < #y end return x < y end)
print(table.concat(byLen, " "))
return words
