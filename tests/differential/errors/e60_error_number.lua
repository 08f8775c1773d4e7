-- lua5.4 reports the bare value ("42", no position); codemode names what was raised.
-- codemode-error: the program raised an error with a number value: 42
local function f() error(42) end
f()
