local t = {}
t[1] = "int"; t["1"] = "str"; t[1.0] = "float-one"; t[2.5] = "frac"
print(t[1], t["1"], t[1.0], t[2.5], #t)
t[2^53] = "big"
print(t[2^53], t[9007199254740992], math.type(next({[3.0] = true})))
local counts = {}
for _, id in ipairs({"10", 10, "10", 10.0, "x"}) do counts[id] = (counts[id] or 0) + 1 end
print(counts["10"], counts[10], counts.x)
local m = {}
m[tonumber("5")] = "five"
print(m[5], m["5"])
local keys = {}
for k in pairs({[1] = 1, [2] = 2, [3] = 3}) do keys[#keys + 1] = k end
table.sort(keys)
print(table.concat(keys, ","))
local ki = {}
for i, v in ipairs({"a", "b", "c", nil, "e"}) do ki[#ki + 1] = i .. v end
print(table.concat(ki, ","))
local neg = {[-1] = "m1", [0] = "zero", "one"}
print(neg[-1], neg[0], neg[1], #neg)
local fk = {}
fk[-0.0] = "negzero"
print(fk[0], fk[0.0])
local mixed = {}
for i = 1, 5 do mixed[i] = i end
mixed[3] = nil
local cnt = 0
for k, v in pairs(mixed) do cnt = cnt + 1 end
print(cnt)
local s = {}
s[#s + 1] = "a"; s[#s + 1] = "b"
print(#s, s[#s])
local idx = {}
for k, v in pairs({x = 1, y = 2, z = 3}) do idx[#idx + 1] = k .. "=" .. v end
table.sort(idx)
print(table.concat(idx, "&"))
print(next({}), type(next), next({7}))
return counts
