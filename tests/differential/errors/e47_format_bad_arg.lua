print(string.format("%d items", "many"))
