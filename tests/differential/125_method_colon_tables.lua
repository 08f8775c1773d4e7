local Account = {}
function Account.new(owner, balance)
  return { owner = owner, balance = balance or 0, history = {},
    deposit = Account.deposit, withdraw = Account.withdraw, report = Account.report }
end
function Account:deposit(v)
  self.balance = self.balance + v
  self.history[#self.history + 1] = "+" .. v
  return self
end
function Account:withdraw(v)
  if v > self.balance then
    error(string.format("%s: cannot withdraw %d, balance is %d", self.owner, v, self.balance), 0)
  end
  self.balance = self.balance - v
  self.history[#self.history + 1] = "-" .. v
  return self
end
function Account:report() return self.owner .. ": " .. self.balance .. " [" .. table.concat(self.history, " ") .. "]" end
local acc = Account.new("ann", 10)
acc:deposit(5):withdraw(3)
print(acc:report())
print(pcall(acc.withdraw, acc, 100))
print(pcall(function() return acc:missing() end))
return acc.balance
