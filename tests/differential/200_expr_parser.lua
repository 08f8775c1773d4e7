local function tokenize(s)
  local toks, i = {}, 1
  while i <= #s do
    local c = s:sub(i, i)
    if c == " " then i = i + 1
    elseif c:find("[", 1, true) then error("bad char", 0)
    elseif ("+-*/()"):find(c, 1, true) then toks[#toks + 1] = c; i = i + 1
    else
      local j = i
      while j <= #s and ("0123456789."):find(s:sub(j, j), 1, true) do j = j + 1 end
      if j == i then error("unexpected '" .. c .. "' at " .. i, 0) end
      toks[#toks + 1] = tonumber(s:sub(i, j - 1))
      i = j
    end
  end
  return toks
end
local function parse(toks)
  local pos = 1
  local expr
  local function atom()
    local t = toks[pos]
    if t == "(" then
      pos = pos + 1
      local v = expr()
      if toks[pos] ~= ")" then error("expected ')'", 0) end
      pos = pos + 1
      return v
    elseif t == "-" then pos = pos + 1; return -atom()
    elseif type(t) == "number" then pos = pos + 1; return t end
    error("unexpected token " .. tostring(t), 0)
  end
  local function term()
    local v = atom()
    while toks[pos] == "*" or toks[pos] == "/" do
      local op = toks[pos]; pos = pos + 1
      local r = atom()
      if op == "*" then v = v * r else v = v / r end
    end
    return v
  end
  expr = function()
    local v = term()
    while toks[pos] == "+" or toks[pos] == "-" do
      local op = toks[pos]; pos = pos + 1
      local r = term()
      if op == "+" then v = v + r else v = v - r end
    end
    return v
  end
  local v = expr()
  if pos <= #toks then error("trailing tokens", 0) end
  return v
end
local out = {}
for i, e in ipairs({ "1 + 2 * 3", "(1 + 2) * 3", "-4 + 10 / 4", "2 * (3 + (4 - 1)) * 0.5", "1 +", "(2", "3 $ 4", "8 / 0" }) do
  local ok, v = pcall(function() return parse(tokenize(e)) end)
  out[i] = tostring(v)
  print(e, ok, v)
end
return out
