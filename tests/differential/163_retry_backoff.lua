local failures_left = 3
local function flaky()
  if failures_left > 0 then
    failures_left = failures_left - 1
    error({ retryable = true, msg = "temporary" })
  end
  return "success"
end
local delays, attempt = {}, 0
local result
while true do
  attempt = attempt + 1
  local ok, res = pcall(flaky)
  if ok then result = res break end
  if not res.retryable or attempt >= 5 then result = "gave up" break end
  local delay = math.min(100 * 2 ^ (attempt - 1), 1000)
  delays[#delays + 1] = delay
end
print(result, attempt, table.concat(delays, ","))
return { result = result, attempts = attempt, delays = delays }
