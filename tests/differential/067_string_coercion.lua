print("10" + 1, "10" * "2", "3.5" + 1, "0x10" + 0, " 5 " * 2, "1e2" + 0)
print(10 .. "", 1.5 .. "", -3 .. "x", 2^63 .. "")
print(math.type("10" + 1), math.type("10" + 1.0), math.type("10.0" + 1))
print("10" // "3", "7" % "4", "2" ^ "3", -"5", - "2.5")
print(pcall(function() return "abc" + 1 end))
print(pcall(function() return "10" < 5 end))
print("10" == 10, "abc" < "abd", "Z" < "a", "" < "a", "10" < "9")
print(#("x" .. 12 .. 3.0))
return { "3" + 4, "3" .. 4 }
