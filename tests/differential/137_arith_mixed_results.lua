local values = { 1, 2.0, -3, 4.5, 0, -0.0 }
local lines = {}
for _, a in ipairs(values) do
  for _, b in ipairs({ 2, 2.0, -1 }) do
    lines[#lines + 1] = string.format("%s %s | %s %s %s %s %s %s", tostring(a), tostring(b),
      tostring(a + b), tostring(a - b), tostring(a * b), tostring(a / b), tostring(a // b), tostring(a % b))
  end
end
for _, l in ipairs(lines) do print(l) end
return #lines
