local t = { 1, 2, nil, 4 }
local n = 0
for i, v in ipairs(t) do n = n + 1 end
print(n)
local list = { "a", "b", "c" }
local seen = {}
for i, v in ipairs(list) do seen[#seen + 1] = i .. "=" .. v end
print(table.concat(seen, " "))
for i, v in ipairs({}) do print("never") end
local k, v = next({})
print(k, v, next({}, nil))
local only = { 10 }
print(next(only))
print(rawequal(list, list), rawequal(list, {}), rawget(list, 2), rawget(list, 5))
rawset(list, 4, "d")
print(#list)
return seen
