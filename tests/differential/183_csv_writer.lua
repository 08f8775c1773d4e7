local function field(v)
  local s = tostring(v)
  local needs = s:find(",", 1, true) or s:find('"', 1, true) or s:find("\n", 1, true)
  if needs then
    local out = {}
    for i = 1, #s do
      local c = s:sub(i, i)
      out[#out + 1] = c == '"' and '""' or c
    end
    return '"' .. table.concat(out) .. '"'
  end
  return s
end
local rows = {
  { "id", "name", "note", "amount" },
  { 1, "Smith, John", 'said "hi"', 10.5 },
  { 2, "Ann", "multi\nline", 3 },
  { 3, "", "plain", -0.25 },
}
local lines = {}
for i, r in ipairs(rows) do
  local fs = {}
  for j, v in ipairs(r) do fs[j] = field(v) end
  lines[i] = table.concat(fs, ",")
end
local csv = table.concat(lines, "\n")
print(csv)
return csv
