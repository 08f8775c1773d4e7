-- string.format('%p') as Lua 5.4: a table's or function's address is the one tostring shows,
-- equal strings share one, nil/booleans/numbers give '(null)'; only '-' and a width.
local t, u = {}, {}
local function hex(v) return (tostring(v):match('0x%x+')) end
print(string.format('%p', t) == hex(t), string.format('%p', print) == hex(print))
print(string.format('%p', t) == string.format('%p', t), string.format('%p', t) ~= string.format('%p', u))
print(string.format('%p', 'key') == string.format('%p', 'k' .. 'ey'))
print(string.format('%p', t):match('^0x%x+$') ~= nil)
print(#string.format('%20p', t), #string.format('%-20p|', t))
print(string.format('[%p] [%10p] [%-10p]', nil, true, 42))
print(string.format('%p', 1.5), string.format('%5p', false))
for _, spec in ipairs({ '%#p', '%0p', '%+p', '% p', '%.3p', '%10.3p', '%-5.1p' }) do
  print(spec, pcall(string.format, spec, t))
end
print(pcall(string.format, '%p'))
-- The whole set of conversions Lua 5.4 accepts, and the letters it refuses.
local accepted, refused = {}, {}
for c in ('aAcdiouxXeEfFgGqspnbhlLjzt'):gmatch('.') do
  local ok = pcall(string.format, '%' .. c, 65)
  if ok then accepted[#accepted + 1] = c else refused[#refused + 1] = c end
end
print(table.concat(accepted), table.concat(refused))
return 'done'
