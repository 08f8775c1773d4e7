local count = 0
local function inc() count = count + 1; return count end
for _, id in ipairs({ "a", "b", "c" }) do inc(); tools.mail.send({ to = id, n = count }) end
return count
