local function fill(tpl, vars)
  local out, pos = {}, 1
  while true do
    local s = tpl:find("{{", pos, true)
    if not s then out[#out + 1] = tpl:sub(pos); break end
    local e = tpl:find("}}", s + 2, true)
    if not e then out[#out + 1] = tpl:sub(pos); break end
    out[#out + 1] = tpl:sub(pos, s - 1)
    local key = tpl:sub(s + 2, e - 1)
    local v = vars[key]
    out[#out + 1] = v ~= nil and tostring(v) or ("<" .. key .. "?>")
    pos = e + 2
  end
  return table.concat(out)
end
local r = {
  fill("Hello {{name}}, you have {{n}} new messages.", { name = "Ada", n = 3 }),
  fill("{{a}}{{b}}{{c}}", { a = 1, b = 2.5, c = false }),
  fill("no vars", {}),
  fill("broken {{x", { x = 1 }),
  fill("{{missing}} here", {}),
}
for _, l in ipairs(r) do print(l) end
return r
