local function default(v, d) return v == nil and d or v end
print(default(nil, 5), default(false, 5), default(0, 5), default("", 5))
local cfg = { retries = 0, verbose = false }
local retries = cfg.retries or 3
local verbose = cfg.verbose or true
local timeout = cfg.timeout or 30
print(retries, verbose, timeout)
local function ternary(c, a, b) if c then return a else return b end end
print(ternary(1 > 2, "yes", "no"), (1 > 2) and "yes" or "no", (2 > 1) and false or "fallback")
local x = nil
local len = x and #x or 0
print(len)
local name = (cfg.user or {}).name or "anonymous"
print(name)
return { retries, verbose, timeout, name }
