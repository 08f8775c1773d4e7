local function minor(m, col)
  local r = {}
  for i = 2, #m do
    local row = {}
    for j = 1, #m do if j ~= col then row[#row + 1] = m[i][j] end end
    r[#r + 1] = row
  end
  return r
end
local function det(m)
  if #m == 1 then return m[1][1] end
  if #m == 2 then return m[1][1] * m[2][2] - m[1][2] * m[2][1] end
  local d = 0
  for j = 1, #m do
    local sign = (j % 2 == 1) and 1 or -1
    d = d + sign * m[1][j] * det(minor(m, j))
  end
  return d
end
print(det({ { 5 } }), det({ { 1, 2 }, { 3, 4 } }))
print(det({ { 2, 0, 1 }, { 1, 3, 2 }, { 1, 1, 1 } }))
print(det({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 2, 6, 4, 8 }, { 3, 1, 1, 2 } }))
print(det({ { 0.5, 1 }, { 2, 3 } }))
return det({ { 1, 0, 0 }, { 0, 2, 0 }, { 0, 0, 3 } })
