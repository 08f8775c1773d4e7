local function split_path(p)
  local parts, pos = {}, 1
  while pos <= #p + 1 do
    local s = p:find("/", pos, true) or (#p + 1)
    local seg = p:sub(pos, s - 1)
    if seg == ".." then
      if #parts > 0 then table.remove(parts) end
    elseif seg ~= "" and seg ~= "." then
      parts[#parts + 1] = seg
    end
    pos = s + 1
  end
  return parts
end
local function normalize(p)
  local abs = p:sub(1, 1) == "/"
  return (abs and "/" or "") .. table.concat(split_path(p), "/")
end
local function ext(p)
  local dot
  for i = #p, 1, -1 do
    local c = p:sub(i, i)
    if c == "." then dot = i break end
    if c == "/" then break end
  end
  return dot and p:sub(dot + 1) or ""
end
local paths = { "/usr//local/./bin/../lib/", "a/b/../../c", "./x.tar.gz", "/", "docs/readme", "../up" }
local out = {}
for i, p in ipairs(paths) do
  out[i] = normalize(p)
  print(p, "->", out[i], "ext=" .. ext(p))
end
return out
