counter = 0
function bump(n) counter = counter + (n or 1); return counter end
bump(); bump(5)
print(counter, type(bump), type(_G), _G.counter, _G["bump"] == bump)
_G.dynamic = "set via _G"
print(dynamic)
local name = "computed_" .. 1
_G[name] = 42
print(computed_1, rawget(_G, "computed_1"))
print(_VERSION)
undefined_read = undefined_thing
print(undefined_read)
return { counter = counter, dyn = dynamic }
