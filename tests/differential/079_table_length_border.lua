local t = { 1, 2, 3 }
t[#t + 1] = 4
print(#t)
t[#t] = nil
print(#t)
local s = {}
for i = 1, 100 do s[i] = i end
for i = 100, 51, -1 do s[i] = nil end
print(#s)
local u = { n = 1, "a", "b" }
print(#u, u.n)
local w = {}
w[1] = 1; w[2] = 2; w[3] = 3
print(#w, rawlen(w), rawlen("abcd"))
return #s
