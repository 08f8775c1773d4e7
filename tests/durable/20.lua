-- A report built over several calls: string building, nested tables, a failing call caught.
local report = { lines = {}, failed = {} }
for _, o in ipairs(tools.orders.list()) do
  local ok, r = pcall(tools.orders.get, { id = o.id })
  if ok then
    report.lines[#report.lines + 1] = ("%-4s %5d %s"):format(r.id, r.total, table.concat(r.tags, "|"))
  else
    report.failed[#report.failed + 1] = { id = o.id, why = r }
  end
end
local sent = tools.mail.send({ body = table.concat(report.lines, "\n"), failures = #report.failed })
return { sent = sent.ok, failed = report.failed, body = sent.echo.body }
