local function last_two(...) return select(-2, ...) end
print(last_two(1, 2, 3, 4))
print(select(-1, "only"))
print(pcall(select, -3, "a", "b"))
print(select(3, "a", "b"))
print(select(2, "a", nil, "c"))
print(select("#"), select("#", nil), select("#", nil, nil, nil))
print(pcall(select, "x"))
print(select(2.0, "a", "b"))
print(pcall(select, 1.5, "a"))
return { select(-2, 10, 20, 30) }
