local log = {}
local function mark(name, v) log[#log + 1] = name; return v end
local function f(a, b, c) return a + b + c end
print(f(mark("a", 1), mark("b", 2), mark("c", 3)))
print(table.concat(log, ""))
log = {}
local t = { mark("x", 1), mark("y", 2), k = mark("z", 3) }
print(table.concat(log, ""))
log = {}
local r = mark("l", 1) + mark("r", 2) * mark("m", 3)
print(r, table.concat(log, ""))
log = {}
local s = mark("1", "a") .. mark("2", "b") .. mark("3", "c")
print(s, table.concat(log, ""))
log = {}
local x = mark("p", false) and mark("q", true) or mark("w", "fallback")
print(x, table.concat(log, ""))
return #log
