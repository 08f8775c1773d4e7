-- Who added and deleted the most lines in the last 20 commits, and where?
-- One git.log call, then one git.show call per commit (21 tool calls).
-- Returns a list of {author, commits, added, deleted, areas}, most lines touched first;
-- `areas` are the top-level directories (two levels under crates/) the author touched.

-- "crates/codemode-lua/src/vm.rs" -> "crates/codemode-lua"; "README.md" -> "."
local function area(path)
  local slash = string.find(path, "/", 1, true)
  if slash == nil then return "." end
  local top = string.sub(path, 1, slash - 1)
  if top == "crates" then
    local second = string.find(path, "/", slash + 1, true)
    if second ~= nil then return string.sub(path, 1, second - 1) end
  end
  return top
end

local stats = {}   -- author -> {commits, added, deleted, areas = set}
local names = {}

for _, c in ipairs(tools.git.log({ limit = 20 })) do
  local ok, commit = pcall(tools.git.show, { rev = c.hash })
  if not ok then
    print("skipping " .. c.hash .. ": " .. tostring(commit))
  else
    local s = stats[commit.author]
    if s == nil then
      s = { commits = 0, added = 0, deleted = 0, areas = {} }
      stats[commit.author] = s
      names[#names + 1] = commit.author
    end
    s.commits = s.commits + 1
    for _, f in ipairs(commit.files) do
      s.added = s.added + f.added
      s.deleted = s.deleted + f.deleted
      s.areas[area(f.path)] = true
    end
  end
end

table.sort(names, function(a, b)
  local ta = stats[a].added + stats[a].deleted
  local tb = stats[b].added + stats[b].deleted
  if ta ~= tb then return ta > tb end
  return a < b
end)

local result = json.array()
for _, name in ipairs(names) do
  local s = stats[name]
  local areas = json.array()
  for a in pairs(s.areas) do areas[#areas + 1] = a end
  table.sort(areas)
  result[#result + 1] = {
    author = name, commits = s.commits, added = s.added, deleted = s.deleted, areas = areas,
  }
end
return result
