-- Lots of short-lived tables and strings while long-lived data sits in locals, upvalues and tables.
local keep = {}
local function make(i) return { id = i, name = "item" .. i, tags = { "t" .. (i % 5), "u" .. (i % 3) } } end
for i = 1, 10000 do
  local tmp = make(i)
  local junk = { tmp, tmp.name .. "-junk", { i, i + 1, i + 2 } }
  if i % 500 == 0 then keep[#keep + 1] = tmp end
  junk = nil
end
local sum, names = 0, {}
for _, k in ipairs(keep) do
  sum = sum + k.id
  names[#names + 1] = k.name .. ":" .. k.tags[1] .. k.tags[2]
end
print(#keep, sum)
print(table.concat(names, " ", 1, 5))
return { count = #keep, last = keep[#keep].name, tags = keep[#keep].tags }
