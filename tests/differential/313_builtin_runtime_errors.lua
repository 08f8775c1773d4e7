-- A runtime error raised inside a builtin (not an argument error) has no position in Lua 5.4
-- (luaG_runerror from a C function), while argument errors and luaL_error messages carry the
-- calling line. Programs that strip or read the prefix see the same text.
local function show(ok, err)
  print(ok, err)
  if type(err) == 'string' then
    print('line', err:match(':(%d+): '))
  end
end
show(pcall(function() return table.unpack(nil) end))
show(pcall(function() return table.unpack(nil, 1, 2) end))
show(pcall(function() return table.unpack() end))
show(pcall(function() return rawset({}, nil, 1) end))
show(pcall(function() return rawset({}, 0 / 0, 1) end))
show(pcall(function() return next({}, 'missing') end))
-- These keep the calling line.
show(pcall(function() return table.concat({ 1, {} }) end))
show(pcall(function() return rawset(1, 2, 3) end))
show(pcall(function() return next(nil) end))
show(pcall(function() local t = {}; t[nil] = 1 end))
show(pcall(function() return ('x'):rep(1, 2, 3) .. nil end))
return 'done'
