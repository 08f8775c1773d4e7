-- string.rep refuses a result over Lua 5.4's MAXSIZE (INT_MAX bytes, counting #s + #sep per
-- repetition) with the catchable "resulting string too large", before allocating anything.
print(pcall(string.rep, 'x', 2 ^ 31))
print(pcall(string.rep, 'ab', 2 ^ 30))
print(pcall(string.rep, 'x', 2 ^ 30, 'y'))
print(pcall(string.rep, 'x', math.maxinteger))
print(pcall(string.rep, '', math.maxinteger, 'y'))
print(pcall(function() return ('abc'):rep(1e10) end))
print(#string.rep('', 5), #string.rep('x', 0), #string.rep('ab', 3, ','))
return 'done'
