local function parse(v)
  local a = v:find(".", 1, true)
  local b = v:find(".", a + 1, true)
  return tonumber(v:sub(1, a - 1)), tonumber(v:sub(a + 1, b - 1)), tonumber(v:sub(b + 1))
end
local function bump(v, part)
  local M, m, p = parse(v)
  if part == "major" then return string.format("%d.0.0", M + 1)
  elseif part == "minor" then return string.format("%d.%d.0", M, m + 1)
  elseif part == "patch" then return string.format("%d.%d.%d", M, m, p + 1)
  end
  error("unknown part: " .. tostring(part), 2)
end
local r = {}
for _, case in ipairs({ { "1.2.3", "major" }, { "1.2.3", "minor" }, { "1.2.3", "patch" }, { "0.9.9", "patch" } }) do
  r[#r + 1] = bump(case[1], case[2])
  print(case[1], case[2], r[#r])
end
print(pcall(bump, "1.0.0", "huge"))
return r
