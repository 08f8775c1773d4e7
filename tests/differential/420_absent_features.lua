print(rawget({5}, 1), rawequal("a", "a"), rawlen({1, 2}), select('#', rawget({}, "k")))
print(pcall(rawget, {}))
print(pcall(rawset, {}, "k"))
print(pcall(rawequal, 1))
