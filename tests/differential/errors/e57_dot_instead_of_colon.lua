local s = string.rep("x", 3)
return s.upper()
