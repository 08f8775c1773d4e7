local function validate(rec)
  if not rec.id then error({ code = "E_ID", msg = "missing id" }) end
  if type(rec.qty) ~= "number" then error({ code = "E_QTY", msg = "qty must be a number", got = type(rec.qty) }) end
  return true
end
local recs = { { id = 1, qty = 2 }, { qty = 1 }, { id = 3, qty = "many" } }
local report = {}
for i, r in ipairs(recs) do
  local ok, e = pcall(validate, r)
  if ok then
    report[i] = "ok"
  else
    report[i] = e.code .. ": " .. e.msg .. (e.got and (" (" .. e.got .. ")") or "")
  end
  print(i, report[i])
end
return report
