-- table constructors and conditions spread over lines: the line lua5.4 reports
local cfg = {}
local function msg(f) local ok, e = pcall(f); return e end
print(msg(function()
  local t = {
    1,
    cfg.a.b
  }
end))
print(msg(function()
  local t = {
    cfg.a.b,
    2,
  }
end))
print(msg(function()
  local t = {
    name = cfg.x.y
  }
end))
print(msg(function()
  local t = {
    [cfg.k.j] = 1,
  }
end))
print(msg(function()
  if cfg.flag and
    cfg.opts.enabled then
    return 1
  end
end))
print(msg(function()
  local list = {
    "a", "b",
    cfg.more.items }
end))
print(msg(function()
  return {
    cfg.p.q
  }
end))
