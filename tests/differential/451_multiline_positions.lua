-- errors in expressions spread over several lines: the line lua5.4 puts in the message
local cfg = {a = {}}
local function msg(f) local ok, e = pcall(f); return e end
print(msg(function()
  local r = cfg.missing(
    1,
    2
  )
end))
print(msg(function()
  local s = "a" ..
    "b" ..
    cfg.nothing
end))
print(msg(function()
  local user = {name = "ann"}
  local line = "Name: " .. user.name ..
    ", Age: " .. user.age ..
    ", City: " .. "x"
end))
print(msg(function()
  local t = {
    x = 1,
    y = cfg.a.z.w,
  }
end))
print(msg(function()
  return cfg
    .a
    .b
    .c
end))
print(msg(function()
  local v = 1 +
    nil
end))
print(msg(function()
  cfg.a
    :method()
end))
print(msg(function()
  local s = ("text")
    :upper()
    :rep({})
end))
print(msg(function()
  return cfg.a
    .missing(1)
end))
print(msg(function()
  error(
    "multi-line error call"
  )
end))
print(msg(function()
  local text = "x"
  return text:upper() ..
    text:lower() ..
    cfg.none .. "!"
end))
