local function check_positive(v, name)
  if v <= 0 then error(name .. " must be positive", 3) end
end
local function make_box(w, h)
  check_positive(w, "width")
  check_positive(h, "height")
  return { w = w, h = h }
end
local function build()
  local b = make_box(2, -1)
  return b
end
print(pcall(build))
local okb, box = pcall(make_box, 1, 2)
print(okb, box.w, box.h)
local ok, e = pcall(function() local x = make_box(0, 1); return x end)
print(ok, e)
return e
