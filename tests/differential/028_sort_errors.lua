local ok, err = pcall(table.sort, { 3, "a", 1 })
-- which pair is compared first is up to the sort algorithm: check the message's start only
print(ok, err:find("attempt to compare", 1, true) ~= nil)
ok, err = pcall(table.sort, { 1, 2, 3 }, function(a, b) return a.x < b.x end)
print(ok, err)
local t = { 3, 1, 2 }
table.sort(t, nil)
print(table.concat(t, ","))
return ok
