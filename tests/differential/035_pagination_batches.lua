local ids = {}
for i = 1, 17 do ids[i] = "id" .. i end
local batches = {}
local size = 4
for start = 1, #ids, size do
  local batch = table.move(ids, start, math.min(start + size - 1, #ids), 1, {})
  batches[#batches + 1] = batch
  print(#batches, #batch, table.concat(batch, ","))
end
return #batches
