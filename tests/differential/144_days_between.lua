local function is_leap(y) return (y % 4 == 0 and y % 100 ~= 0) or y % 400 == 0 end
local mdays = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 }
local function day_number(y, m, d)
  local n = 0
  for yy = 1970, y - 1 do n = n + (is_leap(yy) and 366 or 365) end
  for mm = 1, m - 1 do n = n + mdays[mm] + ((mm == 2 and is_leap(y)) and 1 or 0) end
  return n + d - 1
end
local function weekday(y, m, d)
  local names = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" }
  return names[day_number(y, m, d) % 7 + 1]
end
print(day_number(1970, 1, 1), day_number(2000, 3, 1), day_number(2024, 12, 31))
print(day_number(2024, 3, 1) - day_number(2024, 2, 1), day_number(2023, 3, 1) - day_number(2023, 2, 1))
print(weekday(1970, 1, 1), weekday(2000, 1, 1), weekday(2024, 7, 4))
print(is_leap(1900), is_leap(2000), is_leap(2024), is_leap(2023))
return day_number(2024, 1, 1) - day_number(2023, 1, 1)
