local headers = { "Service", "Calls", "p50 ms", "Errors" }
local rows = {
  { "orders", 1520, 12.5, 3 }, { "billing", 87, 140.25, 0 }, { "search", 23011, 4.75, 120 },
}
local widths = {}
for i, h in ipairs(headers) do widths[i] = #h end
local cells = {}
for r, row in ipairs(rows) do
  cells[r] = {}
  for i, v in ipairs(row) do
    local s = type(v) == "number" and math.type(v) == "float" and string.format("%.2f", v) or tostring(v)
    cells[r][i] = s
    if #s > widths[i] then widths[i] = #s end
  end
end
local function line(values)
  local parts = {}
  for i, v in ipairs(values) do parts[i] = v .. string.rep(" ", widths[i] - #v) end
  return "| " .. table.concat(parts, " | ") .. " |"
end
local out = { line(headers) }
local seps = {}
for i = 1, #headers do seps[i] = string.rep("-", widths[i]) end
out[#out + 1] = "|-" .. table.concat(seps, "-|-") .. "-|"
for _, c in ipairs(cells) do out[#out + 1] = line(c) end
local md = table.concat(out, "\n")
print(md)
return md
