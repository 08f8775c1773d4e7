local total = 37
local batch = 10
local processed, checksum = 0, 0
for start = 1, total, batch do
  local stop = math.min(start + batch - 1, total)
  for i = start, stop do checksum = (checksum + i * i) % 9973 end
  processed = stop
  print(string.format("progress %3d/%d (%5.1f%%)", processed, total, processed / total * 100))
end
print("checksum", checksum)
return { processed = processed, checksum = checksum }
