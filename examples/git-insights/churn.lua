-- Which files changed most in the last 50 commits, and who changed them?
-- Returns a list of {file, changes, authors}, most changed first (ties by file name),
-- at most 20 entries. `changes` counts the commits that touched the file.

local commits = tools.git.log({ limit = 50 })

local by_file = {}   -- file name -> { changes = n, authors = { name -> true } }
local files = {}     -- file names in the order first seen

for _, commit in ipairs(commits) do
  for _, file in ipairs(commit.files) do
    local entry = by_file[file]
    if entry == nil then
      entry = { changes = 0, authors = {} }
      by_file[file] = entry
      files[#files + 1] = file
    end
    entry.changes = entry.changes + 1
    entry.authors[commit.author] = true
  end
end

table.sort(files, function(a, b)
  local ca, cb = by_file[a].changes, by_file[b].changes
  if ca ~= cb then return ca > cb end
  return a < b
end)

local result = json.array()
for i = 1, math.min(20, #files) do
  local file = files[i]
  local authors = json.array()
  for name in pairs(by_file[file].authors) do
    authors[#authors + 1] = name
  end
  table.sort(authors)
  result[#result + 1] = { file = file, changes = by_file[file].changes, authors = authors }
end

print(string.format("%d commits, %d distinct files changed", #commits, #files))
return result
