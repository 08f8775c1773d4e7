local items = { { w = 12, v = 4 }, { w = 2, v = 2 }, { w = 1, v = 1 }, { w = 1, v = 2 }, { w = 4, v = 10 } }
local cap = 15
local dp = {}
for c = 0, cap do dp[c] = 0 end
local choice = {}
for i, it in ipairs(items) do
  choice[i] = {}
  for c = cap, it.w, -1 do
    local with = dp[c - it.w] + it.v
    if with > dp[c] then dp[c] = with; choice[i][c] = true end
  end
end
print("best value", dp[cap])
local row = {}
for c = 0, cap do row[#row + 1] = dp[c] end
print(table.concat(row, " "))
return dp[cap]
