local n = 5
local m = {}
for i = 1, n do m[i] = {} end
local top, bottom, left, right, v = 1, n, 1, n, 1
while top <= bottom and left <= right do
  for j = left, right do m[top][j] = v; v = v + 1 end
  top = top + 1
  for i = top, bottom do m[i][right] = v; v = v + 1 end
  right = right - 1
  if top <= bottom then
    for j = right, left, -1 do m[bottom][j] = v; v = v + 1 end
    bottom = bottom - 1
  end
  if left <= right then
    for i = bottom, top, -1 do m[i][left] = v; v = v + 1 end
    left = left + 1
  end
end
for i = 1, n do
  local row = {}
  for j = 1, n do row[j] = string.format("%3d", m[i][j]) end
  print(table.concat(row))
end
return m
