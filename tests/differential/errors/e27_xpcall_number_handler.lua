local function work() error("boom") end
print("before")
local ok, err = xpcall(work, 5)
print(ok, err)
return ok
