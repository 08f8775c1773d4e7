-- How big is each crate of this workspace, and what is its largest source file?
-- One fs.list call (recursive); returns a list of
-- {crate, files, bytes, largest = {path, bytes}}, biggest crate first.

local listing = tools.fs.list({ path = "crates", recursive = true, max_entries = 5000 })
if listing.truncated then
  print("warning: the listing was cut at 5000 entries")
end

local function ends_with(s, suffix)
  return #s >= #suffix and string.sub(s, -#suffix) == suffix
end

local crates = {}   -- name -> stats
local names = {}
for _, e in ipairs(listing.entries) do
  -- e.path looks like "crates/<name>/..."
  local rest = string.sub(e.path, #"crates/" + 1)
  local slash = string.find(rest, "/", 1, true)
  if e.type == "file" and slash ~= nil and ends_with(e.path, ".rs") then
    local name = string.sub(rest, 1, slash - 1)
    local c = crates[name]
    if c == nil then
      c = { crate = name, files = 0, bytes = 0, largest = { path = e.path, bytes = e.size } }
      crates[name] = c
      names[#names + 1] = name
    end
    c.files = c.files + 1
    c.bytes = c.bytes + e.size
    if e.size > c.largest.bytes then
      c.largest = { path = e.path, bytes = e.size }
    end
  end
end

local result = json.array()
for _, name in ipairs(names) do result[#result + 1] = crates[name] end
table.sort(result, function(a, b)
  if a.bytes ~= b.bytes then return a.bytes > b.bytes end
  return a.crate < b.crate
end)
return result
