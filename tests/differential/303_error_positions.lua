-- Error values carry Lua's position prefix `input:LINE: ` (no column): programs read the line
-- with `err:match(":(%d+): ")` and strip the prefix with `err:gsub("^[^:]+:%d+: ", "")`.
local function show(ok, err)
  print(ok, err)
  if type(err) == 'string' then
    print('line', err:match(':(%d+): '))
    print('text', (err:gsub('^[^:]+:%d+: ', '')))
  end
end
show(pcall(function() error('boom') end))
show(pcall(function() error('deeper', 2) end))
local function fails() error({ code = 7 }) end
local ok, e = pcall(fails)
print(ok, type(e), e.code)
show(pcall(function() local t = nil; return t.x end))
show(pcall(function() return 1 + {} end))
show(pcall(function()
  local s = 'a'
  return s .. nil
end))
show(pcall(function() assert(false, 'assertion text') end))
show(pcall(function() error('no position', 0) end))
show(pcall(error, 'direct'))
local function level2()
  error('blame the caller', 2)
end
show(pcall(function()
  level2()
end))
return 'done'
