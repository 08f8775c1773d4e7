local function check(cfg)
  if not cfg.url then
    error("missing url in config", 2)
  end
end
local function load_cfg()
  local c = {}
  check(c)
  return c
end
load_cfg()
