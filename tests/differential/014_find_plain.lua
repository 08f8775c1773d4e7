local text = "error: disk full (code 28); error: retry failed"
local i, j = string.find(text, "error:", 1, true)
print(i, j)
print(string.find(text, "error:", i + 1, true))
print(text:find("(code", 1, true))
print(text:find("missing", 1, true))
print(text:find("", 1, true), text:find("", 100, true), text:find("", #text + 1, true))
print(text:find("full", -25, true))
local count, pos = 0, 1
while true do
  local s, e = text:find("error", pos, true)
  if not s then break end
  count = count + 1
  pos = e + 1
end
print("count", count)
return count
