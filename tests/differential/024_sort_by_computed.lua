local files = {
  { path = "src/main.rs", lines = 420 }, { path = "README.md", lines = 80 },
  { path = "src/lib.rs", lines = 1200 }, { path = "Cargo.toml", lines = 30 },
  { path = "src/vm/exec.rs", lines = 2100 }, { path = "tests/a.rs", lines = 80 },
}
local function depth(p)
  local d = 0
  for i = 1, #p do if p:sub(i, i) == "/" then d = d + 1 end end
  return d
end
table.sort(files, function(a, b)
  local da, db = depth(a.path), depth(b.path)
  if da ~= db then return da > db end
  if a.lines ~= b.lines then return a.lines > b.lines end
  return a.path < b.path
end)
local r = {}
for i, f in ipairs(files) do
  r[i] = string.format("%d %5d %s", depth(f.path), f.lines, f.path)
  print(r[i])
end
return r
