local text = "The quick brown fox jumps over the lazy dog and keeps running far away into the forest"
local width = 20
local lines, line = {}, ""
local pos = 1
while pos <= #text do
  local sp = text:find(" ", pos, true) or (#text + 1)
  local word = text:sub(pos, sp - 1)
  if #line == 0 then
    line = word
  elseif #line + 1 + #word <= width then
    line = line .. " " .. word
  else
    lines[#lines + 1] = line
    line = word
  end
  pos = sp + 1
end
if #line > 0 then lines[#lines + 1] = line end
for i, l in ipairs(lines) do print(string.format("%2d|%-" .. width .. "s|", i, l)) end
return lines
