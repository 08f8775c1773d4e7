local function matmul(a, b)
  local n, m, p = #a, #b, #b[1]
  local c = {}
  for i = 1, n do
    c[i] = {}
    for j = 1, p do
      local s = 0
      for k = 1, m do s = s + a[i][k] * b[k][j] end
      c[i][j] = s
    end
  end
  return c
end
local a = {{1, 2}, {3, 4}}
local b = {{0.5, 0}, {0, 2}}
local c = matmul(a, b)
print(c[1][1], c[1][2], c[2][1], c[2][2])
local id = matmul(a, {{1, 0}, {0, 1}})
print(id[1][1], id[2][2], math.type(id[1][1]))
local function mean(t) local s = 0; for _, v in ipairs(t) do s = s + v end; return s / #t end
local function stddev(t) local m = mean(t); local s = 0; for _, v in ipairs(t) do s = s + (v - m) ^ 2 end; return math.sqrt(s / #t) end
local data = {2, 4, 4, 4, 5, 5, 7, 9}
print(mean(data), stddev(data), mean({1, 2}), string.format("%.3f", stddev({1, 2, 3, 4})))
local function round(x, n) local m = 10 ^ (n or 0); return math.floor(x * m + 0.5) / m end
print(round(2.345, 2), round(2.5), round(-2.5), round(1234.5678, -2), math.floor(3.999999999999999999))
print(7 / 2 * 2, 7 // 2 * 2, 2^10, 10^-2, (-8)^(1/3) ~= (-8)^(1/3))
print(1e15 + 1, 1e16 + 1, 0.1 + 0.2, 0.1 + 0.2 == 0.3, math.abs(0.1 + 0.2 - 0.3) < 1e-12)
return c
