-- lua5.4: "(error object is a nil value)" (the oracle driver prints "nil"); codemode says the same in words.
-- codemode-error: the program raised an error with a nil value
local x = nil
error(x)
