local text = "Lua is a powerful, efficient, lightweight, embeddable scripting language.\nIt supports procedural programming.\n\nLua is fast."
local lines, words, chars, longest = 0, 0, #text, ""
local pos = 1
while pos <= #text + 1 do
  local nl = text:find("\n", pos, true) or (#text + 1)
  local line = text:sub(pos, nl - 1)
  lines = lines + 1
  local wpos = 1
  while wpos <= #line do
    local sp = line:find(" ", wpos, true) or (#line + 1)
    local w = line:sub(wpos, sp - 1)
    if #w > 0 then
      words = words + 1
      local clean = w
      local last = clean:sub(-1)
      if last == "," or last == "." then clean = clean:sub(1, -2) end
      if #clean > #longest then longest = clean end
    end
    wpos = sp + 1
  end
  pos = nl + 1
end
print("lines", lines, "words", words, "chars", chars, "longest", longest)
return { lines = lines, words = words, longest = longest }
