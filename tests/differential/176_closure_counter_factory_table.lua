local function make_counters(names)
  local counters = {}
  for _, n in ipairs(names) do
    local count = 0
    counters[n] = {
      inc = function(by) count = count + (by or 1); return count end,
      get = function() return count end,
      reset = function() local old = count; count = 0; return old end,
    }
  end
  return counters
end
local c = make_counters({ "hits", "misses", "errors" })
c.hits.inc(); c.hits.inc(5); c.misses.inc(); c.errors.inc(2)
print(c.hits.get(), c.misses.get(), c.errors.get())
print(c.hits.reset(), c.hits.get(), c.misses.get())
return { hits = c.hits.get(), misses = c.misses.get(), errors = c.errors.get() }
