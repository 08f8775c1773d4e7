local root = {}
local cur = root
for i = 1, 60 do
  cur.level = i
  cur.child = {}
  cur = cur.child
end
cur.leaf = true
local depth, node = 0, root
while node.child do depth = depth + 1; node = node.child end
print(depth, node.leaf)
local function sum_levels(n)
  if not n.level then return 0 end
  return n.level + sum_levels(n.child)
end
print(sum_levels(root))
local path = {}
node = root
for i = 1, 5 do path[#path + 1] = node.level; node = node.child end
print(table.concat(path, "."))
return { depth = depth, sum = sum_levels(root) }
