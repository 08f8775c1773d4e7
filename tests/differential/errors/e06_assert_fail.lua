local items = {}
print(#items)
assert(#items > 0, "expected at least one item")
