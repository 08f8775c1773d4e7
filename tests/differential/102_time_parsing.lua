local function to_seconds(hms)
  local h = tonumber(hms:sub(1, 2))
  local m = tonumber(hms:sub(4, 5))
  local s = tonumber(hms:sub(7, 8))
  return h * 3600 + m * 60 + s
end
local function fmt(secs)
  local h = secs // 3600
  local m = secs % 3600 // 60
  local s = secs % 60
  if h > 0 then return string.format("%dh %02dm %02ds", h, m, s) end
  if m > 0 then return string.format("%dm %02ds", m, s) end
  return string.format("%ds", s)
end
local spans = { { "09:15:00", "17:45:30" }, { "23:59:59", "23:59:59" }, { "00:00:00", "00:01:05" }, { "12:00:00", "13:00:00" } }
local total, out = 0, {}
for i, sp in ipairs(spans) do
  local d = to_seconds(sp[2]) - to_seconds(sp[1])
  total = total + d
  out[i] = fmt(d)
  print(sp[1], sp[2], out[i])
end
print("total", fmt(total), total)
return out
