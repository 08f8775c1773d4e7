local function runaway(n) return 1 + runaway(n + 1) end
local ok, err = pcall(runaway, 1)
print(ok, (err:gsub("^input:%d+: ", "")))
print(err:match("^input:(%d+):"))
local depth = 0
local function deep() depth = depth + 1; deep() end
local ok2, err2 = pcall(deep)
print(ok2, depth > 1000, err2:match("stack overflow") ~= nil)
local function build(n) if n == 0 then return {} end return {child = build(n - 1)} end
local t = build(150)
local d = 0
while t.child do d = d + 1; t = t.child end
print(d)
return ok
