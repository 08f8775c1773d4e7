local list = {"banana", "apple", "Cherry", "apple2", "10", "9", "", " x", "a b", "ä"}
table.sort(list)
local q = {}
for i, v in ipairs(list) do q[i] = string.format("%q", v) end
print(table.concat(q, " "))
print("a" < "aa", "aa" < "b", "B" < "a", "abc" == "abc", "abc" ~= "abd", "A" <= "A", "b" >= "a")
print(("x"):rep(3) == "xxx", "10" == 10, "1e1" == "10")
local nums = {"10", "9", "100", "1"}
table.sort(nums, function(a, b) return tonumber(a) < tonumber(b) end)
print(table.concat(nums, " "))
table.sort(nums)
print(table.concat(nums, " "))
local recs = {{n = "b", v = 2}, {n = "a", v = 2}, {n = "c", v = 1}}
table.sort(recs, function(x, y) if x.v == y.v then return x.n < y.n end return x.v < y.v end)
print(recs[1].n, recs[2].n, recs[3].n)
local mx = "apple"
for _, w in ipairs({"pear", "zebra", "mango"}) do if w > mx then mx = w end end
print(mx, math.max(3, 7, 1))
print(pcall(math.max, "a", "b"))
return list
