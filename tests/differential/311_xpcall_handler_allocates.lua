-- An xpcall message handler that allocates heavily before it returns: the collector runs
-- inside the handler, and the error value it was given (a table made only by `error`) and the
-- handler stay alive. `crates/codemode-lua/tests/differential.rs` also runs this under a small
-- memory cap, where the handler's garbage only fits when it is collected.
local function handler(e)
  local total = 0
  for i = 1, 3000 do
    local t = { string.rep('z', 300) .. i, { i, i + 1 } }
    total = total + #t[1] + t[2][2]
  end
  if type(e) == 'table' then
    return 'table error ' .. e.code .. ' ' .. e.detail .. ' ' .. total
  end
  return 'string error ' .. tostring(e):gsub('^[^:]+:%d+: ', '') .. ' ' .. total
end
local out = {}
for round = 1, 6 do
  local ok, msg = xpcall(function(r)
    if r % 2 == 0 then
      error({ code = r, detail = string.rep('d', r) })
    end
    error('odd round ' .. r)
  end, handler, round)
  print(round, ok, msg)
  out[#out + 1] = msg
end
-- A handler that itself fails once per call: it is called again with the new error value.
local depth = 0
local ok, msg = xpcall(function() error('first') end, function(e)
  depth = depth + 1
  local junk = {}
  for i = 1, 2000 do junk[i] = string.rep('q', 100) .. i end
  if depth == 1 then error({ again = #junk }) end
  if type(e) == 'table' then return 'second with ' .. e.again end
  return e
end)
print(ok, msg, depth)
return out
