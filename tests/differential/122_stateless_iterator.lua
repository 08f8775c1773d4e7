local function iter(t, i)
  i = i + 2
  local v = t[i]
  if v ~= nil then return i, v end
end
local function every_other(t) return iter, t, -1 end
local t = { "a", "b", "c", "d", "e" }
local r = {}
for i, v in every_other(t) do r[#r + 1] = i .. "=" .. v end
print(table.concat(r, " "))
local function rev_ipairs(t)
  return function(tt, i)
    i = i - 1
    if i > 0 then return i, tt[i] end
  end, t, #t + 1
end
local rr = {}
for i, v in rev_ipairs(t) do rr[#rr + 1] = v end
print(table.concat(rr))
local nx = {}
for k, v in next, { 10 } do nx[#nx + 1] = k .. ":" .. v end
print(table.concat(nx))
return rr
