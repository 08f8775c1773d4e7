local handlers = {
  sum = function(xs) local s = 0 for _, x in ipairs(xs) do s = s + x end return s end,
  max = function(xs) return math.max(table.unpack(xs)) end,
  count = function(xs) return #xs end,
  mean = function(xs, h) return h.sum(xs) / h.count(xs) end,
}
local data = { 4, 8, 15, 16, 23, 42 }
local names = {}
for k in pairs(handlers) do names[#names + 1] = k end
table.sort(names)
local results = {}
for _, n in ipairs(names) do
  results[n] = handlers[n](data, handlers)
  print(n, results[n])
end
local ops = { "sum", "nope", "max" }
for _, op in ipairs(ops) do
  local ok, v = pcall(function() return handlers[op](data, handlers) end)
  print(op, ok, ok and v or "failed")
end
return results
