local function set(list) local s = {} for _, v in ipairs(list) do s[v] = true end return s end
local function keys(s) local r = {} for k in pairs(s) do r[#r + 1] = k end table.sort(r) return r end
local a = set({ "x", "y", "z", "w" })
local b = set({ "y", "w", "v" })
local union, inter, diff = {}, {}, {}
for k in pairs(a) do union[k] = true; if b[k] then inter[k] = true else diff[k] = true end end
for k in pairs(b) do union[k] = true end
print("union", table.concat(keys(union), ","))
print("inter", table.concat(keys(inter), ","))
print("a-b", table.concat(keys(diff), ","))
local nums = set({ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 })
print("distinct", table.concat(keys(nums), ","))
return { union = keys(union), inter = keys(inter) }
