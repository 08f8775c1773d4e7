local t = {}
t[nil] = 1
