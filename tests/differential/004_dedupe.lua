local emails = { "a@x.com", "B@x.com", "a@x.com", "c@y.org", "b@x.com", "c@y.org", "d@z.net" }
local seen, unique = {}, {}
for _, e in ipairs(emails) do
  local k = string.lower(e)
  if not seen[k] then
    seen[k] = true
    unique[#unique + 1] = k
  end
end
print(#unique, table.concat(unique, ","))
return unique
