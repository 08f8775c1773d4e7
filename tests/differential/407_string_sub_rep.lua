local s = "hello world"
local r = {}
for _, ij in ipairs({ {1, 5}, {-5, -1}, {-5}, {0}, {7, 100}, {-100, 3}, {5, 2}, {0, 0}, {12}, {-1, -1}, {3, -3} }) do
  r[#r + 1] = "[" .. s:sub(ij[1], ij[2]) .. "]"
end
print(table.concat(r, " "))
print(("ab"):rep(3), ("ab"):rep(3, ", "), ("x"):rep(0), ("x"):rep(-1), ("x"):rep(1, "sep"))
print(s:len(), #s, s:upper(), s:lower(), ("MiXeD 123"):lower(), ("MiXeD 123"):upper())
print(s:reverse(), (""):reverse())
print(s:byte(), s:byte(-1), s:byte(1, 3), s:byte(100))
print(select('#', s:byte(100)), select('#', s:byte(3, 2)))
print(string.char(), string.char(104, 105), pcall(string.char, 256))
print(pcall(string.char, -1))
print(pcall(string.rep))
print(pcall(("x").rep, "x", 1.5))
print(("x"):rep(2.0), s:sub(2.0, 4.0))
print(pcall(s.sub, s, 1.5))
print(pcall(s.sub, s, "2", "3"))
print(pcall(s.sub, s, "a"))
print(string.len("\0\0"), ("%d"):format(7))
return r
