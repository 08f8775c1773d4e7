local ledger = {
  { acct = "A", kind = "credit", amt = 500 }, { acct = "B", kind = "credit", amt = 200 },
  { acct = "A", kind = "debit", amt = 120.5 }, { acct = "C", kind = "debit", amt = 10 },
  { acct = "B", kind = "debit", amt = 250 }, { acct = "A", kind = "credit", amt = 0.25 },
  { acct = "C", kind = "refund", amt = 5 },
}
local balances, rejected = {}, {}
for i, e in ipairs(ledger) do
  local b = balances[e.acct] or 0
  if e.kind == "credit" then b = b + e.amt
  elseif e.kind == "debit" then
    if b < e.amt then
      rejected[#rejected + 1] = string.format("#%d %s debit %.2f > balance %.2f", i, e.acct, e.amt, b)
    else
      b = b - e.amt
    end
  else
    rejected[#rejected + 1] = string.format("#%d unknown kind %q", i, e.kind)
  end
  balances[e.acct] = b
end
for _, k in ipairs({ "A", "B", "C" }) do print(k, balances[k]) end
for _, r in ipairs(rejected) do print(r) end
return { balances = balances, rejected = rejected }
