local results = {}
local function process(item)
  return item.value * 2
end
for _, it in ipairs({{value = 1}, {value = "x"}}) do
  results[#results + 1] = process(it)
end
