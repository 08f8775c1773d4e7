local resp = { data = { items = { 1, 2 } } }
local n = 0
for _, v in ipairs(resp.data.items) do n = n + v end
print(n)
-- lua5.4 says only "attempt to index a nil value", with no position and no name: a model cannot
-- tell which loop failed. codemode names the function and the bad argument instead.
-- codemode-error: bad argument #1 to 'ipairs' (table expected, got nil)
for _, v in ipairs(resp.data.rows) do n = n + v end
return n
