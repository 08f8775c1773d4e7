local logs = {
  "2024-05-01T10:00:01 INFO  api request ok 120ms",
  "2024-05-01T10:00:02 ERROR db timeout 5000ms",
  "2024-05-01T10:00:03 WARN  api slow 900ms",
  "2024-05-01T10:00:04 INFO  api request ok 80ms",
  "2024-05-01T10:00:05 ERROR api upstream 502 30ms",
  "2024-05-01T10:00:06 INFO  db query ok 15ms",
}
local levels, components, totalMs = {}, {}, 0
for _, line in ipairs(logs) do
  local level = line:sub(21, 25):upper()
  local trimmed = level
  local sp = level:find(" ", 1, true)
  if sp then trimmed = level:sub(1, sp - 1) end
  levels[trimmed] = (levels[trimmed] or 0) + 1
  local rest = line:sub(27)
  local comp = rest:sub(1, (rest:find(" ", 1, true) or 0) - 1)
  components[comp] = (components[comp] or 0) + 1
  local msStart = #line
  while line:sub(msStart, msStart) ~= " " do msStart = msStart - 1 end
  local ms = tonumber(line:sub(msStart + 1, #line - 2))
  totalMs = totalMs + ms
end
local keys = {}
for k in pairs(levels) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do print(k, levels[k]) end
print("api", components.api, "db", components.db, "total ms", totalMs, "avg", totalMs / #logs)
return { levels = levels, components = components, totalMs = totalMs }
