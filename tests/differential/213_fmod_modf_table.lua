local rows = {}
for _, x in ipairs({ 5.5, -5.5, 7, -7, 0.3, 1e15 + 0.5 }) do
  local ip, fp = math.modf(x)
  rows[#rows + 1] = string.format("%s: modf=%s,%s fmod3=%s floor=%s ceil=%s", tostring(x), tostring(ip),
    tostring(fp), tostring(math.fmod(x, 3)), tostring(math.floor(x)), tostring(math.ceil(x)))
end
for _, r in ipairs(rows) do print(r) end
print(math.modf(-0.0))
print(math.fmod(-6, 3), math.fmod(6, -3), math.fmod(math.mininteger, -1))
return rows
