-- A 10^7-iteration numeric for loop mixing integer and float arithmetic.
-- Every float stays a multiple of 0.25 below 2^53, so the sums are exact and the checksum is an
-- integer that lua5.4 and codemode print the same way.
local isum = 0
local fsum = 0.0
for i = 1, 10000000 do
  isum = isum + (i * 3) % 7 + (i // 5)
  fsum = fsum + i * 0.5 + i / 4
end
local checksum = isum + math.floor(fsum)
print(checksum)
return checksum
