local sql = [[
SELECT id, name
FROM users
WHERE name = 'x' -- not a Lua comment
]]
print(#sql, sql:sub(1, 6))
local code = [==[
local s = [[inner]]
return s
]==]
print(code)
local nested = [=[a]]b]=]
print(nested, #nested)
local first_newline = [[

two blank lines above become one]]
print(first_newline:byte(1), #first_newline)
return { sql, code, nested }
