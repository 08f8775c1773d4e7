local function fetch(id) return tools.orders.get({ id = id }) end
local a, b = fetch("a"), fetch("bb")
return { a = a.tags, b = b.tags[2], n = #a.tags + #b.tags }
