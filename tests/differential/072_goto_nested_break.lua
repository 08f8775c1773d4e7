local grid = { { 1, 2, 3 }, { 4, 99, 6 }, { 7, 8, 9 } }
local fr, fc
for r = 1, #grid do
  for c = 1, #grid[r] do
    if grid[r][c] == 99 then
      fr, fc = r, c
      goto found
    end
  end
end
::found::
print("found at", fr, fc)
local n = 0
while true do
  n = n + 1
  for k = 1, 3 do
    if n * k > 10 then goto out end
  end
end
::out::
print("n", n)
return { fr, fc, n }
