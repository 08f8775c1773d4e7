local function collect(...)
  local t = { ... }
  local u = { ..., "end" }
  local v = { "start", ... }
  -- with no arguments u is { nil, "end" }: its length is not unique (0 or 2), so report u[2]
  return #t, u[2], #v, t, select("#", ...)
end
local a, b, c, t, n = collect(1, 2, 3)
print(a, b, c, n, table.concat(t, ","))
local a2, b2, c2, t2, n2 = collect()
print(a2, b2, c2, type(t2), n2)
local function opts(...)
  local o = ...
  local first, second = ...
  return o, first, second
end
print(opts("x", "y", "z"))
local function count_nils(...)
  local n = 0
  for i = 1, select("#", ...) do if select(i, ...) == nil then n = n + 1 end end
  return n
end
print(count_nils(nil, 1, nil, nil, 2, nil))
return { collect(9, 8) }
