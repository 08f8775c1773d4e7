-- Averages over empty lists are a common way for a program to produce NaN; lua5.4 on x86-64
-- prints the sign of the NaN it gets from the hardware ("-nan" for 0/0).
local function average(list)
  local sum = 0
  for _, v in ipairs(list) do sum = sum + v end
  return sum / #list
end
local avg = average({})
print(avg, avg ~= avg, tostring(avg), -avg)
print(string.format("avg=%.2f", avg), string.format("%g", -avg), avg .. "")
local z = 0
print(0/0, -(0/0), z/z, math.huge - math.huge, math.huge * 0, math.sqrt(-1))
local report = { empty = average({}), one = average({ 4 }) }
print(report.empty ~= report.empty, report.one)
return { isnan = avg ~= avg, text = tostring(avg), one = report.one }
