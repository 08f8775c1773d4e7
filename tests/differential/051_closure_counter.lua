local function counter(start, step)
  local n = start
  return function()
    n = n + step
    return n
  end
end
local a, b = counter(0, 1), counter(100, -10)
print(a(), a(), a(), b(), b(), a())
local c = counter(0.5, 0.25)
print(c(), c())
return { a(), b(), c() }
