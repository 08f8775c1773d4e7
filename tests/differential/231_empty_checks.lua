local function is_empty(t) return next(t) == nil end
local cases = { {}, { 1 }, { a = false }, { [0] = 1 }, { nil } }
local r = {}
for i, c in ipairs(cases) do r[i] = is_empty(c); print(i, r[i], #c) end
local s = ""
print(#s == 0, s == "", ("x"):sub(2) == "", string.rep("x", -1) == "", string.rep("ab", 0, ",") == "")
return r
