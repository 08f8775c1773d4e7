error("with level 1", 1)
