local text = [[
# comment line
name = codemode
port=8080
debug = true
ratio = 0.75
empty =
  spaced key   =   value with spaces
invalid line
]]
local function trim(s)
  local i, j = 1, #s
  while i <= j and s:sub(i, i) == " " do i = i + 1 end
  while j >= i and s:sub(j, j) == " " do j = j - 1 end
  return s:sub(i, j)
end
local cfg, errors, lineNo = {}, {}, 0
local pos = 1
while pos <= #text do
  local nl = text:find("\n", pos, true) or (#text + 1)
  local line = text:sub(pos, nl - 1)
  lineNo = lineNo + 1
  pos = nl + 1
  local t = trim(line)
  if t ~= "" and t:sub(1, 1) ~= "#" then
    local eq = t:find("=", 1, true)
    if not eq then
      errors[#errors + 1] = "line " .. lineNo .. ": missing '='"
    else
      local k, v = trim(t:sub(1, eq - 1)), trim(t:sub(eq + 1))
      if v == "true" then v = true elseif v == "false" then v = false
      elseif tonumber(v) then v = tonumber(v) end
      cfg[k] = v
    end
  end
end
print(cfg.name, cfg.port, math.type(cfg.port), cfg.debug, cfg.ratio, "[" .. cfg.empty .. "]", cfg["spaced key"])
print(table.concat(errors, "; "))
return cfg
