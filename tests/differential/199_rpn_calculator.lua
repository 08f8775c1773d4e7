local function rpn(expr)
  local stack = {}
  local pos = 1
  while pos <= #expr do
    local sp = expr:find(" ", pos, true) or (#expr + 1)
    local tok = expr:sub(pos, sp - 1)
    pos = sp + 1
    if tok ~= "" then
      local n = tonumber(tok)
      if n then stack[#stack + 1] = n
      else
        local b, a = table.remove(stack), table.remove(stack)
        if a == nil or b == nil then error("stack underflow at '" .. tok .. "'", 0) end
        if tok == "+" then stack[#stack + 1] = a + b
        elseif tok == "-" then stack[#stack + 1] = a - b
        elseif tok == "*" then stack[#stack + 1] = a * b
        elseif tok == "/" then stack[#stack + 1] = a / b
        elseif tok == "//" then stack[#stack + 1] = a // b
        elseif tok == "^" then stack[#stack + 1] = a ^ b
        else error("unknown operator '" .. tok .. "'", 0) end
      end
    end
  end
  if #stack ~= 1 then error("malformed expression, stack has " .. #stack .. " items", 0) end
  return stack[1]
end
local exprs = { "3 4 +", "5 1 2 + 4 * + 3 -", "2 3 ^", "7 2 /", "7 2 //", "1 +", "1 2", "4 0 //", "2 x" }
local out = {}
for i, e in ipairs(exprs) do
  local ok, v = pcall(rpn, e)
  out[i] = (ok and "= " or "! ") .. tostring(v)
  print(string.format("%-20s %s", e, out[i]))
end
return out
