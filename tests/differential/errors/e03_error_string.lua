local function validate(x)
  if x > 10 then
    error("value too large: " .. x)
  end
  return x
end
print(validate(5))
validate(11)
