local pages = {
  { { id = 1, ok = true }, { id = 2, ok = false }, { id = 3, ok = true } },
  { { id = 4, ok = true }, { id = 5, ok = true } },
  { { id = 6, ok = false }, { id = 7, ok = true }, { id = 8, ok = true } },
  { { id = 9, ok = true } },
}
local wanted, found, fetched = 5, {}, 0
for p = 1, #pages do
  fetched = fetched + 1
  for _, rec in ipairs(pages[p]) do
    if rec.ok then
      found[#found + 1] = rec.id
      if #found == wanted then goto done end
    end
  end
end
::done::
print("fetched", fetched, "found", table.concat(found, " "))
return { fetched = fetched, found = found }
