local Stack = {}
function Stack.new() return {items = {}, size = 0} end
function Stack.push(s, v) s.size = s.size + 1; s.items[s.size] = v end
function Stack.pop(s)
  if s.size == 0 then return nil, "empty" end
  local v = s.items[s.size]; s.items[s.size] = nil; s.size = s.size - 1
  return v
end
local st = Stack.new()
for i = 1, 5 do Stack.push(st, i * i) end
print(Stack.pop(st), Stack.pop(st), st.size, #st.items)
local Account = {}
function Account.new(owner, balance)
  local self = {owner = owner, balance = balance or 0, log = {}}
  function self:deposit(n)
    if type(n) ~= "number" or n <= 0 then error("invalid amount: " .. tostring(n), 2) end
    self.balance = self.balance + n
    self.log[#self.log + 1] = "+" .. n
    return self
  end
  function self:withdraw(n)
    if n > self.balance then return nil, string.format("insufficient funds: %.2f < %.2f", self.balance, n) end
    self.balance = self.balance - n
    self.log[#self.log + 1] = "-" .. n
    return self
  end
  return self
end
local acc = Account.new("ann", 100)
acc:deposit(50):deposit(25.5)
print(acc.balance, acc:withdraw(500))
print(pcall(acc.deposit, acc, -5))
print(pcall(function() acc:deposit("x") end))
acc:withdraw(0.5)
print(acc.balance, table.concat(acc.log, " "))
local q = {first = 1, last = 0, items = {}}
local function push(v) q.last = q.last + 1; q.items[q.last] = v end
local function shift() if q.first > q.last then return nil end local v = q.items[q.first]; q.items[q.first] = nil; q.first = q.first + 1; return v end
push("a"); push("b"); push("c")
print(shift(), shift(), shift(), shift())
return acc.balance
