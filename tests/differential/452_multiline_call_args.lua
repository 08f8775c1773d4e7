-- a call whose last argument indexes nil, with the `)` on its own line: lua5.4 reports the
-- line of the `)`; other arguments report their own line
local user = {name = "ann"}
local function msg(f) local ok, e = pcall(f); return e end
print(msg(function()
  return string.format(
    "%s has %d items",
    user.name,
    user.cart.count
  )
end))
print(msg(function()
  return string.format(
    "%s has %d items",
    user.profile.name,
    3
  )
end))
print(msg(function()
  print(user.cart.count
  )
end))
print(msg(function()
  local t = {}
  table.insert(t,
    user.tags[1])
end))
print(msg(function()
  local s = ("x"):rep(
    user.opts.n
  )
end))
print(msg(function()
  return tostring(user.a.b)
end))
print(msg(function()
  local r = math.max(
    1,
    user.limits["max"]
  )
end))
