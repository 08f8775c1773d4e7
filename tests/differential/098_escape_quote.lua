local samples = { 'plain', 'with "quotes"', "back\\slash", "new\nline", "tab\there", "nul\0byte", "\1\2\127\200" }
local quoted = {}
for i, s in ipairs(samples) do
  quoted[i] = string.format("%q", s)
  -- the last sample holds bytes that are not UTF-8: only returned, not printed
  if i < #samples then print(quoted[i]) end
end
print(string.format("%q", 42), string.format("%q", math.mininteger), string.format("%q", 1.5))
print(string.format("%q", 1/0), string.format("%q", -1/0), string.format("%q", 0.1))
local function json_escape(s)
  local out = {}
  for i = 1, #s do
    local c = s:sub(i, i)
    local b = c:byte()
    if c == '"' then out[#out + 1] = '\\"'
    elseif c == "\\" then out[#out + 1] = "\\\\"
    elseif c == "\n" then out[#out + 1] = "\\n"
    elseif c == "\t" then out[#out + 1] = "\\t"
    elseif b < 32 then out[#out + 1] = string.format("\\u%04x", b)
    else out[#out + 1] = c end
  end
  return '"' .. table.concat(out) .. '"'
end
local r = {}
for i, s in ipairs(samples) do r[i] = json_escape(s) end
print(#table.concat(r, ","), r[1], r[4])
return { r, quoted }
