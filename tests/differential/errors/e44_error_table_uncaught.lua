-- lua5.4 reports "(error object is a table value)" (the oracle driver prints its address);
-- codemode shows the table so a model sees what was raised.
-- codemode-error: the program raised an error with a table value: {"code":500}
error({code = 500})
