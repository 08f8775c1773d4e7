local function is_array(t)
  local n = 0
  for k in pairs(t) do
    if type(k) ~= "number" or k <= 0 or math.type(k) ~= "integer" then return false end
    n = n + 1
  end
  return n == #t
end
local function esc(s)
  return (s:gsub('[%c"\\]', function(c)
    local map = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\t'] = '\\t', ['\r'] = '\\r'}
    return map[c] or string.format("\\u%04x", c:byte())
  end))
end
local encode
function encode(v, indent, depth)
  depth = depth or 0
  local t = type(v)
  if t == "nil" then return "null"
  elseif t == "boolean" then return tostring(v)
  elseif t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    if math.type(v) == "integer" then return tostring(v) end
    if v == math.floor(v) and math.abs(v) < 1e15 then return string.format("%d", v) end
    return string.format("%.14g", v)
  elseif t == "string" then return '"' .. esc(v) .. '"'
  elseif t == "table" then
    local parts = {}
    if is_array(v) then
      for i = 1, #v do parts[i] = encode(v[i], indent, depth + 1) end
      return "[" .. table.concat(parts, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    for _, k in ipairs(keys) do
      local val = v[k]
      if val == nil then val = v[tonumber(k)] end
      parts[#parts + 1] = '"' .. esc(k) .. '":' .. encode(val, indent, depth + 1)
    end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  error("cannot encode " .. t)
end
local data = {
  name = "Widget \"Pro\"", price = 19.99, qty = 3, tags = {"a", "b\nc"}, ratio = 1/3,
  nested = {deep = {x = 1.0, y = -0.0, z = 1e20}}, empty = {}, flag = false,
  [10] = "ten", ctrl = "\1\31",
}
local s = encode(data)
print(s)
print(encode({1, 2, {3, {4}}}), encode("x"), encode(2^53), encode(0/0))
print(pcall(encode, {f = print}))
local function decode_simple(str)
  local pos = 1
  local function ws() pos = str:find("%S", pos) or #str + 1 end
  local value
  local function parse_string()
    local j = pos + 1
    local buf = {}
    while true do
      local c = str:sub(j, j)
      if c == '"' then break end
      if c == "\\" then
        local n = str:sub(j + 1, j + 1)
        local m = {n = "\n", t = "\t", ['"'] = '"', ["\\"] = "\\"}
        buf[#buf + 1] = m[n] or n
        j = j + 2
      else buf[#buf + 1] = c; j = j + 1 end
    end
    pos = j + 1
    return table.concat(buf)
  end
  function value()
    ws()
    local c = str:sub(pos, pos)
    if c == "{" then
      pos = pos + 1; local obj = {}
      ws()
      if str:sub(pos, pos) == "}" then pos = pos + 1 return obj end
      while true do
        ws(); local k = parse_string(); ws(); pos = pos + 1
        obj[k] = value(); ws()
        local d = str:sub(pos, pos); pos = pos + 1
        if d == "}" then return obj end
      end
    elseif c == "[" then
      pos = pos + 1; local arr = {}
      ws()
      if str:sub(pos, pos) == "]" then pos = pos + 1 return arr end
      while true do
        arr[#arr + 1] = value(); ws()
        local d = str:sub(pos, pos); pos = pos + 1
        if d == "]" then return arr end
      end
    elseif c == '"' then return parse_string()
    else
      local num = str:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if num and #num > 0 then pos = pos + #num; return math.tointeger(tonumber(num)) or tonumber(num) end
      for lit, v in pairs({["true"] = true, ["false"] = false, ["null"] = "NULL"}) do
        if str:sub(pos, pos + #lit - 1) == lit then pos = pos + #lit; return v end
      end
      error("bad json at " .. pos)
    end
  end
  return value()
end
local back = decode_simple(s)
print(back.name, back.price, back.qty, back.tags[2], back.nested.deep.z, back["10"], back.flag)
print(encode(back) == s)
return back
