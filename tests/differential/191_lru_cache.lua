local function LRU(cap)
  local order, store, hits, misses = {}, {}, 0, 0
  local self = {}
  local function touch(k)
    for i = #order, 1, -1 do if order[i] == k then table.remove(order, i) break end end
    order[#order + 1] = k
  end
  function self.get(k)
    local v = store[k]
    if v == nil then misses = misses + 1; return nil end
    hits = hits + 1
    touch(k)
    return v
  end
  function self.put(k, v)
    if store[k] == nil and #order >= cap then
      local old = table.remove(order, 1)
      store[old] = nil
    end
    store[k] = v
    touch(k)
  end
  function self.stats() return hits, misses, table.concat(order, ",") end
  return self
end
local c = LRU(3)
c.put("a", 1); c.put("b", 2); c.put("c", 3)
c.get("a"); c.put("d", 4); c.get("b"); c.get("c"); c.put("e", 5); c.get("a"); c.get("d")
print(c.stats())
return { c.stats() }
