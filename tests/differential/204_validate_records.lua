local schema = {
  { field = "id", type = "number", required = true },
  { field = "email", type = "string", required = true },
  { field = "age", type = "number", required = false, min = 0, max = 150 },
  { field = "tags", type = "table", required = false },
}
local records = {
  { id = 1, email = "a@b.c", age = 30, tags = {} },
  { id = "2", email = "x@y.z" },
  { email = "no-id@x" },
  { id = 4, email = "old@x", age = 200 },
  { id = 5, email = 5, age = -1, tags = "nope" },
}
local all_errors = {}
for i, rec in ipairs(records) do
  local errs = {}
  for _, rule in ipairs(schema) do
    local v = rec[rule.field]
    if v == nil then
      if rule.required then errs[#errs + 1] = rule.field .. " is required" end
    elseif type(v) ~= rule.type then
      errs[#errs + 1] = string.format("%s must be %s, got %s", rule.field, rule.type, type(v))
    elseif rule.min and (v < rule.min or v > rule.max) then
      errs[#errs + 1] = string.format("%s out of range [%d, %d]: %d", rule.field, rule.min, rule.max, v)
    end
  end
  all_errors[i] = errs
  print(i, #errs == 0 and "valid" or table.concat(errs, "; "))
end
return all_errors
