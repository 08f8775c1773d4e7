local tx = { 100, -20, -35.5, 250, -400, 12.25, 0, -1 }
local bal, minBal, overdrafts = 0, 0, 0
local history = {}
for i, amt in ipairs(tx) do
  bal = bal + amt
  if bal < 0 then overdrafts = overdrafts + 1 end
  if bal < minBal then minBal = bal end
  history[i] = bal
end
print(table.concat(history, " "))
print("final", bal, "min", minBal, "overdrafts", overdrafts)
return history
