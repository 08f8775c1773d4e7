local config = {}
print("keys:")
-- lua5.4 says "bad argument #1 to 'for iterator' (table expected, got nil)": the program never
-- wrote 'for iterator'. codemode names the function that was called.
-- codemode-error: bad argument #1 to 'pairs' (table expected, got nil)
for k, v in pairs(config.settings) do
  print(k, v)
end
