local a, b, c = {}, {}, {}
local visits = {}
visits[a] = 1
visits[b] = 2
visits[a] = (visits[a] or 0) + 10
print(visits[a], visits[b], visits[c], visits[{}])
local flags = { [true] = "yes", [false] = "no" }
print(flags[true], flags[false], flags[1 == 1], flags[nil ~= nil])
local nodes = { { name = "x" }, { name = "y" }, { name = "z" } }
local parent = { [nodes[2]] = nodes[1], [nodes[3]] = nodes[2] }
local chain, n = {}, nodes[3]
while n do chain[#chain + 1] = n.name; n = parent[n] end
print(table.concat(chain, "<-"))
local fkeys = {}
local function f1() end
local function f2() end
fkeys[f1] = "first"; fkeys[f2] = "second"
print(fkeys[f1], fkeys[f2], fkeys[print])
local count = 0
for k, v in pairs(visits) do count = count + v end
print(count)
return { count, chain }
