local function Stack()
  local items, self = {}, {}
  function self.push(v) items[#items + 1] = v; return self end
  function self.pop()
    if #items == 0 then return nil, "empty" end
    return table.remove(items)
  end
  function self.peek() return items[#items] end
  function self.size() return #items end
  return self
end
local s = Stack()
s.push(1).push(2).push(3)
print(s.size(), s.peek(), s.pop(), s.pop(), s.size())
print(s.pop(), s.pop())
local a, b = Stack(), Stack()
a.push("x")
print(a.size(), b.size())
return { a.size(), b.size() }
