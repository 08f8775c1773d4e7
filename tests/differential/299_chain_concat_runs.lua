-- `..` runs of 150 operands (lua5.4 accepts at most 197), mixed with arithmetic
-- (tighter), comparisons and `and`/`or` (looser) in one expression.
local a, f, s = 7, 2.5, 'str'
local t = {k = 'K'}
local c1 = 1 .. a * f .. (a .. s) .. t.k .. a .. -3 .. a + 1 .. #s .. #s .. 2 ^ 3 .. a // 2 .. a * f .. 'x' ..
  1 .. a * f .. (a .. s) .. a * f .. 2 ^ 3 .. a .. a + 1 .. f .. (a .. s) .. -3 .. 1 .. 2 ^ 3 .. 1 ..
  2.0 .. 2.0 .. a + 1 .. 2 ^ 3 .. 1 .. a // 2 .. (a .. s) .. t.k .. 2.0 .. #s .. #s .. 2.0 .. 2 ^ 3 ..
  t.k .. f .. 1 .. f .. a .. 2 ^ 3 .. (a .. s) .. #s .. s .. a * f .. t.k .. s .. f .. 2 ^ 3 .. #s ..
  (a .. s) .. 'x' .. 2 ^ 3 .. #s .. -3 .. 2.0 .. #s .. f .. 2 ^ 3 .. t.k .. 'x' .. a * f .. 2.0 .. a
  .. a // 2 .. a // 2 .. t.k .. s .. 'x' .. s .. (a .. s) .. #s .. a + 1 .. a * f .. 1 .. a + 1 .. (a
  .. s) .. a // 2 .. a .. a .. a * f .. a .. a * f .. a .. (a .. s) .. 1 .. 2.0 .. a .. a + 1 .. 2 ^ 3
  .. a + 1 .. 2 ^ 3 .. a .. a // 2 .. -3 .. 'x' .. s .. a .. a * f .. 1 .. 'x' .. t.k .. (a .. s) .. s
  .. s .. a * f .. t.k .. a * f .. 'x' .. a .. (a .. s) .. a // 2 .. a * f .. t.k .. (a .. s) .. -3 ..
  2 ^ 3 .. 1 .. (a .. s) .. #s .. 'x' .. 2 ^ 3 .. -3 .. a * f .. (a .. s) .. 1 .. 'x' .. t.k .. 2 ^ 3
  .. 'x' .. 1 .. 2 ^ 3 .. t.k .. 'x' .. a + 1 .. a // 2 .. -3 .. #s .. 2 ^ 3 .. 1 .. a // 2 .. 2.0 ..
  a + 1 .. a + 1 .. a .. s
print('c1', c1, #c1)
local c2 = 1 + 2 .. 3 * 4 .. a - 1 .. f
print('c2', c2)
local c3 = a .. s == '7str' and s .. a or 'no' .. s
print('c3', c3)
local c4 = 'a' .. 'b' < 'a' .. 'c' == true
print('c4', c4)
local parts = {}
for i = 1, 3 do parts[i] = i .. ':' .. i * i .. ';' .. (i % 2 == 0 and 'even' or 'odd') end
print('loop', table.concat(parts, ','))
local acc = ''
for i = 1, 5 do acc = acc .. i .. ',' .. acc end
print('self', acc)
local ok, e = pcall(function() return 'a' .. nv .. 'b' end)
print('err', ok, (e:gsub('^[^:]*:[%d:]+ ', '')))
local ok2, e2 = pcall(function() return 'a' .. 'b' .. t .. 'c' end)
print('err2', ok2, (e2:gsub('^[^:]*:[%d:]+ ', '')))
return {c1, c2, c3, c4, acc}
