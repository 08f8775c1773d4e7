local function parse_iso(s)
  local y, m, d, hh, mm, ss = s:match("^(%d%d%d%d)-(%d%d)-(%d%d)[T ](%d%d):(%d%d):(%d%d)")
  if not y then return nil, "bad date: " .. s end
  return {year = tonumber(y), month = tonumber(m), day = tonumber(d), hour = tonumber(hh), min = tonumber(mm), sec = tonumber(ss)}
end
local function is_leap(y) return (y % 4 == 0 and y % 100 ~= 0) or y % 400 == 0 end
local mdays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end
local function epoch(t) return days_from_civil(t.year, t.month, t.day) * 86400 + t.hour * 3600 + t.min * 60 + t.sec end
local a = parse_iso("2024-02-28T23:59:30Z")
local b = parse_iso("2024-03-01 00:00:10")
print(epoch(a), epoch(b), epoch(b) - epoch(a), (epoch(b) - epoch(a)) / 3600)
print(is_leap(2024), is_leap(1900), is_leap(2000), mdays[2] + (is_leap(2024) and 1 or 0))
print(parse_iso("yesterday"))
local function fmt(ts)
  local days = ts // 86400
  local rem = ts % 86400
  return string.format("day %d %02d:%02d:%02d", days, rem // 3600, rem % 3600 // 60, rem % 60)
end
print(fmt(epoch(a)), fmt(0), fmt(-1))
local durations = {59, 3600, 3661, 86399, 90061}
local out = {}
for _, s in ipairs(durations) do
  local h, m, sec = s // 3600, s % 3600 // 60, s % 60
  out[#out + 1] = (h > 0 and h .. "h" or "") .. (m > 0 and m .. "m" or "") .. sec .. "s"
end
print(table.concat(out, " "))
return epoch(a)
