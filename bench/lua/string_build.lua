-- Build a 1 MiB string from parts: string.format pieces collected in a table, joined with
-- table.concat (plus a few separator joins). Checksum: "length/hash" of the result, where the
-- hash samples one byte every 997 bytes.
local TARGET = 1024 * 1024
local parts = {}
local n = 0
local total = 0
local i = 0
while total < TARGET do
  i = i + 1
  local piece
  if i % 3 == 0 then
    piece = string.format("%d:%s=%5.2f;", i, "item" .. i, i / 8)
  elseif i % 3 == 1 then
    piece = string.format("[%06d|%x|%-6s]", i, i * 31, "k" .. (i % 97))
  else
    piece = "row" .. i .. "," .. (i * 7 % 1000) .. ";"
  end
  n = n + 1
  parts[n] = piece
  total = total + #piece
end

-- A few joins with separators, as a program building CSV lines would.
local lines = {}
for j = 1, 100 do
  lines[j] = table.concat(parts, ",", j, j + 9)
end
local header = table.concat(lines, "\n")

local s = table.concat(parts) .. string.rep("-", 16) .. string.sub(header, 1, 64)
local hash = 0
for j = 1, #s, 997 do
  hash = (hash * 131 + string.byte(s, j)) % 2147483647
end
local checksum = string.format("%d/%d", #s, hash)
print(checksum)
return checksum
