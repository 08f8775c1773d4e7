local items = {}
print(#items)
print(items[1].name)
