local function count(...) return select("#", ...) end
print(count(), count(nil), count(1, nil, 3), count(nil, nil))
local function last(...) return (select(select("#", ...), ...)) end
print(last(1, 2, 3), last("a"))
print(select(2, "a", "b", "c"))
print(select(-1, "a", "b", "c"))
print(select(-2, "a", "b", "c"))
print(pcall(select, 0, "a"))
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s
end
print(sum(1, 2, nil, 4), sum())
return { count(1, 2), sum(5, 5) }
