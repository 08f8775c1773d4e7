local xs = { 2, 4, 4, 4, 5, 5, 7, 9 }
local n, sum = #xs, 0
for _, x in ipairs(xs) do sum = sum + x end
local mean = sum / n
local sq = 0
for _, x in ipairs(xs) do sq = sq + (x - mean) ^ 2 end
local var = sq / n
local sd = math.sqrt(var)
print("mean", mean, "var", var, "sd", sd)
local sample_sd = math.sqrt(sq / (n - 1))
print(string.format("sample sd %.6f", sample_sd))
local z = {}
for i, x in ipairs(xs) do z[i] = string.format("%.3f", (x - mean) / sd) end
print(table.concat(z, " "))
return { mean = mean, var = var, sd = sd }
