local function call_tool(name, input)
  if name == "orders.get" and input.id == nil then
    error({ kind = "InvalidInput", field = "id", details = { expected = "string", got = "nil" } })
  elseif name == "orders.get" then
    return { id = input.id, total = 10 }
  end
  error({ kind = "UnknownTool", name = name, suggestions = { "orders.get", "orders.list" } })
end
local log = {}
for _, c in ipairs({ { "orders.get", { id = "o1" } }, { "orders.get", {} }, { "order.gett", {} } }) do
  local ok, res = pcall(call_tool, c[1], c[2])
  if ok then
    log[#log + 1] = "ok " .. res.id .. " " .. res.total
  elseif res.kind == "InvalidInput" then
    log[#log + 1] = "invalid " .. res.field .. " expected " .. res.details.expected .. " got " .. res.details.got
  else
    log[#log + 1] = "unknown " .. res.name .. ", did you mean " .. table.concat(res.suggestions, " or ")
  end
end
for _, l in ipairs(log) do print(l) end
return log
