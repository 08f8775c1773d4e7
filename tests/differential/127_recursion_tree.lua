local tree = {
  name = "root", children = {
    { name = "a", children = { { name = "a1", children = {} }, { name = "a2", children = {} } } },
    { name = "b", children = { { name = "b1", children = { { name = "b1x", children = {} } } } } },
    { name = "c", children = {} },
  },
}
local lines = {}
local function walk(node, depth)
  lines[#lines + 1] = string.rep("  ", depth) .. node.name
  for _, ch in ipairs(node.children) do walk(ch, depth + 1) end
end
walk(tree, 0)
print(table.concat(lines, "\n"))
local function count(node)
  local n = 1
  for _, ch in ipairs(node.children) do n = n + count(ch) end
  return n
end
local function height(node)
  local h = 0
  for _, ch in ipairs(node.children) do h = math.max(h, height(ch)) end
  return h + 1
end
print("nodes", count(tree), "height", height(tree))
return lines
