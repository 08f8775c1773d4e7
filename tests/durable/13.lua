local r1 = tools.mail.send({ nested = { a = { b = { 1, 2, 3 } } } })
local r2 = tools.mail.send({ prev = r1.echo.nested.a.b })
return r2.echo.prev
