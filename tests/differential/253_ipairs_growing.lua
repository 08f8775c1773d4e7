local t = { 1, 2, 3 }
local seen = {}
for i, v in ipairs(t) do
  seen[#seen + 1] = v
  if v < 3 and #t < 6 then t[#t + 1] = v * 10 end
end
print(#seen, table.concat(seen, ","), #t)
local u = { "a", "b", "c", "d" }
local visited = {}
for i, v in ipairs(u) do
  visited[#visited + 1] = v
  if i == 2 then u[4] = nil end
end
print(table.concat(visited, ","))
local m = { a = 1, b = 2, c = 3, d = 4 }
for k, v in pairs(m) do
  if v % 2 == 0 then m[k] = nil else m[k] = v * 100 end
end
local rest = {}
for k, v in pairs(m) do rest[#rest + 1] = k .. "=" .. v end
table.sort(rest)
print(table.concat(rest, " "))
return rest
