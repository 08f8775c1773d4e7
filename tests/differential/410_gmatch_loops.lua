local words = {}
for w in ("the quick  brown\tfox"):gmatch("%S+") do words[#words + 1] = w end
print(#words, table.concat(words, "|"))
local kv = {}
for k, v in ("a=1, b=22, c=333"):gmatch("(%w+)=(%w+)") do kv[#kv + 1] = k .. ":" .. v end
print(table.concat(kv, " "))
local pos = {}
for p in ("abcabc"):gmatch("()b") do pos[#pos + 1] = p end
print(table.concat(pos, ","))
local empties = 0
for e in ("abc"):gmatch("") do empties = empties + 1 end
print(empties)
local nums = {}
for n in ("x=1.5 y=-2 z=3e2"):gmatch("[-%d.e]+") do nums[#nums + 1] = tonumber(n) end
print(nums[1], nums[2], nums[3])
local lines = {}
for line in ("line1\nline2\n\nline4"):gmatch("([^\n]*)\n?") do lines[#lines + 1] = "[" .. line .. "]" end
print(table.concat(lines))
local csv = {}
for field in ("a,b,,d"):gmatch("([^,]*)") do csv[#csv + 1] = "<" .. field .. ">" end
print(table.concat(csv))
local anch = {}
for a in ("aaa"):gmatch("^a") do anch[#anch + 1] = a end
print(#anch)
return words, kv
