-- error(msg, level) counts the builtins on the call stack as levels, as Lua 5.4 counts C
-- functions: a level that names a builtin (pcall, table.sort, string.gsub) gets no position,
-- and the levels past it reach the Lua code that called that builtin.
local function show(ok, err)
  print(ok, err)
end
local function raise(level) error('boom', level) end
local function middle(level) raise(level) end
for level = 1, 4 do
  show(pcall(middle, level))
end
-- pcall(error, msg, 2): level 1 is pcall, level 2 the line that calls pcall.
show(pcall(error, 'direct', 1))
show(pcall(error, 'direct', 2))
show(pcall(error, 'direct', 3))
-- Inside a table.sort comparator: level 2 is table.sort, level 3 the line calling it.
for level = 1, 3 do
  show(pcall(function()
    table.sort({ 3, 1, 2 }, function(a, b)
      error('in comparator', level)
    end)
  end))
end
-- Inside a gsub replacement function.
for level = 1, 3 do
  show(pcall(function()
    return ('abc'):gsub('%w', function(c)
      error('in gsub ' .. c, level)
    end)
  end))
end
-- gsub calling error directly: level 1 is gsub, level 2 the line calling gsub.
show(pcall(function() return string.gsub('abc', '%w', error) end))
-- Through a protected call inside a protected call.
show(pcall(function()
  local ok, err = pcall(raise, 3)
  error(err, 0)
end))
-- Tail calls are not levels.
local function tail(level) return raise(level) end
show(pcall(function() tail(2) end))
show(pcall(function() tail(3) end))
return 'done'
