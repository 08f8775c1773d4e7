local rows = {}
for a = -7, 7, 7 do
  for _, b in ipairs({ -3, -2, 2, 3 }) do
    rows[#rows + 1] = string.format("%3d %3d | %3d %3d | %5.1f | %s %s", a, b, a // b, a % b, a / b,
      tostring(a * 1.0 // b), tostring(math.fmod(a, b)))
  end
end
for _, r in ipairs(rows) do print(r) end
return rows
