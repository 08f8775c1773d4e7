local function make()
  local balance = 0
  local function deposit(x) balance = balance + x; return balance end
  local function withdraw(x)
    if x > balance then return nil, "insufficient funds" end
    balance = balance - x
    return balance
  end
  local function get() return balance end
  return { deposit = deposit, withdraw = withdraw, get = get }
end
local acct = make()
print(acct.deposit(50), acct.withdraw(20), acct.withdraw(100), acct.get())
local other = make()
print(other.deposit(1), acct.get())
return acct.get()
