local x = math.floor("a")
