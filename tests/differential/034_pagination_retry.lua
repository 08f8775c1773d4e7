local attempts = {}
local failures = { [2] = 2, [4] = 1 }
local function get_page(n)
  attempts[n] = (attempts[n] or 0) + 1
  if failures[n] and attempts[n] <= failures[n] then
    error({ code = 503, page = n })
  end
  if n > 5 then return { items = {}, more = false } end
  return { items = { n * 10, n * 10 + 1 }, more = n < 5 }
end
local items, n, retries = {}, 1, 0
while true do
  local ok, res = pcall(get_page, n)
  if ok then
    for _, v in ipairs(res.items) do items[#items + 1] = v end
    if not res.more then break end
    n = n + 1
  else
    retries = retries + 1
    print("retry page", res.page, "code", res.code)
    if retries > 10 then break end
  end
end
print("items", #items, "retries", retries)
return { items = items, retries = retries }
