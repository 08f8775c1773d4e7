-- assignments and arithmetic spread over lines: the line lua5.4 reports
local order = {subtotal = 10}
local report = {}
local function msg(f) local ok, e = pcall(f); return e end
print(msg(function()
  local total = order.subtotal +
    order.tax
end))
print(msg(function()
  local total = order.tax
    + order.subtotal
end))
print(msg(function()
  report.summary.totals = {
    count = 1,
    sum = 2,
  }
end))
print(msg(function()
  report.summary.count =
    5
end))
print(msg(function()
  report.summary.label = string.format(
    "%d",
    5
  )
end))
print(msg(function()
  local a, b = 1,
    order.x.y
end))
print(msg(function()
  local n = #
    order.items
end))
print(msg(function()
  local ok = order.subtotal <
    order.limit
end))
print(msg(function()
  local s = -
    order.discount
end))
print(msg(function()
  report.list[#report.list + 1] = {
    id = 1,
  }
end))
print(msg(function()
  local x = order.subtotal * 2 +
    order.fee * 3
end))
print(msg(function()
  local v = order.items[1]
    .name
end))
print(msg(function()
  if order.subtotal >
    order.limit then return 1 end
end))
print(msg(function()
  return order.nope ==
    1 or order.subtotal >=
   order.nope
end))
print(msg(function()
  local a, b = {}, nil
  a.x, b.y = 1,
    2
end))
print(msg(function()
  while order.subtotal
    <= order.max do end
end))
