local n, mean, m2 = 0, 0.0, 0.0
local mn, mx
for _, x in ipairs({ 10, 20, 30, 25, 15, 5, 40 }) do
  n = n + 1
  local delta = x - mean
  mean = mean + delta / n
  m2 = m2 + delta * (x - mean)
  mn = (mn == nil or x < mn) and x or mn
  mx = (mx == nil or x > mx) and x or mx
end
print(n, mean, m2 / (n - 1), mn, mx)
print(string.format("%.4f %.4f", mean, math.sqrt(m2 / n)))
return { n = n, mean = mean, min = mn, max = mx }
