local function id(x) return x end
local function keys(t) local r = {} for k in pairs(t) do r[#r + 1] = k end table.sort(r) return table.concat(r, ",") end
print(id"plain string", id[[long string]], type(id{}))
print(keys{ b = 1, a = 2, c = 3 })
local obj = { prefix = ">" }
function obj:say(msg) return self.prefix .. " " .. msg end
function obj.static(v) return "static " .. tostring(v) end
print(obj:say"hello", obj:say[[there]], obj.static{} ~= nil)
local s = ("x"):rep(3)
print(s, #s, ("%d"):format(7))
local M = { sub = { deeper = {} } }
function M.sub.deeper.fn(a, b) return a * b end
function M.sub:count() return self == M.sub end
print(M.sub.deeper.fn(6, 7), M.sub:count())
return { id"x", keys{ z = 1 } }
