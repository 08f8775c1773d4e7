-- collectgarbage with Lua 5.4's options: result types (what 'step' returns and which mode is
-- current depend on the collector: lua5.4's standalone interpreter runs in generational mode),
-- what 'collect' frees, argument errors.
local function show(...)
  local parts = {}
  for i = 1, select('#', ...) do
    parts[i] = math.type((select(i, ...))) or type((select(i, ...)))
  end
  print(select('#', ...), table.concat(parts, ' '))
end
for _, opt in ipairs({ 'collect', 'count', 'step', 'isrunning', 'incremental', 'generational',
  'stop', 'restart', 'setpause', 'setstepmul' }) do
  print(opt)
  show(collectgarbage(opt))
end
collectgarbage('restart')
collectgarbage('incremental')
show(collectgarbage())
show(collectgarbage(nil))
show(collectgarbage('step', 0))
show(collectgarbage('incremental', 0, 0, 0))
print(collectgarbage('collect'), collectgarbage('isrunning'))
-- A full collection frees what is no longer reachable.
local rows = {}
for i = 1, 2000 do rows[i] = { id = i, name = ('row ' .. i):rep(20) } end
local before = collectgarbage('count')
rows = nil
collectgarbage()
local after = collectgarbage('count')
print('freed most', after < before / 2)
-- Errors.
print(pcall(collectgarbage, 'bogus'))
print(pcall(collectgarbage, 1))
print(pcall(collectgarbage, {}))
print(pcall(collectgarbage, 'step', 'x'))
print(pcall(collectgarbage, 'incremental', 1, 2, {}))
print(pcall(collectgarbage, 'setpause', 1.5))
return 'done'
