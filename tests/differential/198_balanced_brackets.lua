local pairs_map = { [")"] = "(", ["]"] = "[", ["}"] = "{" }
local function check(s)
  local stack = {}
  for i = 1, #s do
    local c = s:sub(i, i)
    if c == "(" or c == "[" or c == "{" then stack[#stack + 1] = c
    elseif pairs_map[c] then
      if stack[#stack] ~= pairs_map[c] then return false, "mismatch at " .. i end
      stack[#stack] = nil
    end
  end
  if #stack > 0 then return false, "unclosed " .. #stack end
  return true
end
local r = {}
for _, s in ipairs({ "()", "([]{})", "(]", "((", "{[()()]}", "", "a(b)c]", "}" }) do
  local ok, why = check(s)
  r[#r + 1] = ok
  print(string.format("%-10s %-5s %s", s, tostring(ok), why or ""))
end
return r
