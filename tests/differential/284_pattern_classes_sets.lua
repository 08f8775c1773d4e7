-- every class and its complement over all bytes 0..255, and sets
local classes = { "a", "c", "d", "g", "l", "p", "s", "u", "w", "x" }
local all = {}
for i = 0, 255 do all[#all + 1] = string.char(i) end
all = table.concat(all)
local out = {}
for _, c in ipairs(classes) do
  local _, n = all:gsub("%" .. c, "")
  local _, m = all:gsub("%" .. c:upper(), "")
  out[#out + 1] = c .. "=" .. n .. "/" .. m
end
print(table.concat(out, " "))
local sets = { "[a-f]", "[^a-f]", "[%d%.]", "[%a_][%w_]*", "[]]", "[^]]", "[a-]", "[-a]", "[%]]", "[%-]",
  "[^%s]+", "[A-Za-z0-9]+", "[%^]", "[a%-z]", "[.]", "[%w%p]+" }
local subject = "x-y]z^ a.b_c 42 .5 hello_World a-z"
for _, s in ipairs(sets) do
  local parts = {}
  for m in subject:gmatch(s) do parts[#parts + 1] = m end
  print(s, #parts, table.concat(parts, "|"))
end
print(("a\tb\nc\vd\fe\rf g"):gsub("%s", "_"))
print(("x\0y\0z"):gsub("%z", "0") == nil)
print(#("caf\195\169"):match("[\128-\255]+"))
return (subject:gsub("%W", ""))
