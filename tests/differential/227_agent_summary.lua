-- What an agent might return after "calling tools": a summary over commit records.
local commits = {
  { sha = "a1", author = "ann", files = { "src/vm.rs", "src/lib.rs" }, added = 120, removed = 30 },
  { sha = "b2", author = "bob", files = { "README.md" }, added = 10, removed = 2 },
  { sha = "c3", author = "ann", files = { "src/vm.rs" }, added = 45, removed = 60 },
  { sha = "d4", author = "cyd", files = { "src/lib.rs", "tests/a.rs", "src/vm.rs" }, added = 300, removed = 0 },
  { sha = "e5", author = "bob", files = { "src/lib.rs" }, added = 1, removed = 1 },
}
local fileStats, authorStats = {}, {}
for _, c in ipairs(commits) do
  local a = authorStats[c.author] or { commits = 0, churn = 0 }
  a.commits = a.commits + 1
  a.churn = a.churn + c.added + c.removed
  authorStats[c.author] = a
  for _, f in ipairs(c.files) do
    local s = fileStats[f] or { changes = 0, authors = {} }
    s.changes = s.changes + 1
    s.authors[c.author] = true
    fileStats[f] = s
  end
end
local files = {}
for f, s in pairs(fileStats) do
  local as = {}
  for a in pairs(s.authors) do as[#as + 1] = a end
  table.sort(as)
  files[#files + 1] = { file = f, changes = s.changes, authors = as }
end
table.sort(files, function(x, y) if x.changes ~= y.changes then return x.changes > y.changes end return x.file < y.file end)
for i = 1, 3 do print(files[i].file, files[i].changes, table.concat(files[i].authors, ",")) end
return { top = { files[1], files[2], files[3] }, authors = authorStats }
