local events = {
  { t = 30, kind = "start", job = "b" }, { t = 10, kind = "start", job = "a" },
  { t = 45, kind = "end", job = "a" }, { t = 50, kind = "start", job = "c" },
  { t = 70, kind = "end", job = "b" }, { t = 95, kind = "end", job = "c" },
}
table.sort(events, function(x, y) if x.t ~= y.t then return x.t < y.t end return x.job < y.job end)
local running, maxConc, started, durations = 0, 0, {}, {}
for _, e in ipairs(events) do
  if e.kind == "start" then
    running = running + 1
    started[e.job] = e.t
    if running > maxConc then maxConc = running end
  else
    running = running - 1
    durations[#durations + 1] = e.job .. "=" .. (e.t - started[e.job])
  end
end
print("max concurrency", maxConc)
print(table.concat(durations, " "))
return { max = maxConc, durations = durations }
