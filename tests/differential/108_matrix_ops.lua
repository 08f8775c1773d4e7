local function matmul(a, b)
  local r = {}
  for i = 1, #a do
    r[i] = {}
    for j = 1, #b[1] do
      local s = 0
      for k = 1, #b do s = s + a[i][k] * b[k][j] end
      r[i][j] = s
    end
  end
  return r
end
local function transpose(m)
  local t = {}
  for i = 1, #m[1] do t[i] = {} for j = 1, #m do t[i][j] = m[j][i] end end
  return t
end
local A = { { 1, 2, 3 }, { 4, 5, 6 } }
local B = { { 7, 8 }, { 9, 10 }, { 11, 12 } }
local C = matmul(A, B)
for _, row in ipairs(C) do print(table.concat(row, " ")) end
local T = transpose(A)
for _, row in ipairs(T) do print(table.concat(row, " ")) end
local I = matmul(C, { { 1, 0 }, { 0, 1.0 } })
print(I[1][1], I[2][2])
return C
