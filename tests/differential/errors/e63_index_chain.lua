local t = {}
local v = t.a.b.c
