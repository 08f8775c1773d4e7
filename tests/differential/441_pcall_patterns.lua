local function risky(n)
  if n == 1 then error("string err") end
  if n == 2 then error({code = 2, msg = "table err"}) end
  if n == 3 then error("no pos", 0) end
  if n == 4 then local t = nil; return t.x end
  if n == 5 then return nil, "soft failure" end
  return "ok " .. n
end
local results = {}
for i = 1, 6 do
  local ok, a, b = pcall(risky, i)
  local desc
  if ok then desc = "ok:" .. tostring(a) .. ":" .. tostring(b)
  elseif type(a) == "table" then desc = "tbl:" .. a.code .. ":" .. a.msg
  else desc = "err:" .. a end
  results[i] = desc
  print(i, desc)
end
local function try(f, ...)
  local r = table.pack(pcall(f, ...))
  if r[1] then return table.unpack(r, 2, r.n) end
  return nil, (tostring(r[2]):gsub("^[^:]+:%d+: ", ""))
end
print(try(risky, 1))
print(try(risky, 6))
print(try(function(a, b) return a // b end, 7, 0))
print(try(function(a, b) return a // b end, 7.0, 0))
local attempts, ok = 0, false
repeat
  attempts = attempts + 1
  ok = pcall(function() if attempts < 3 then error("retry") end end)
until ok or attempts >= 5
print(attempts, ok)
local function cleanup_wrap(f)
  local log = {}
  local ok, err = pcall(f, log)
  log[#log + 1] = "cleanup"
  if not ok then log[#log + 1] = "rethrow" end
  return table.concat(log, ","), err
end
print(cleanup_wrap(function(log) log[1] = "work"; error("bad", 0) end))
print(select('#', pcall(function() return end)), select('#', pcall(function() return nil, nil end)))
print(xpcall(risky, function(e) return "H:" .. tostring(e) end, 3))
print(pcall(pcall, error, "x"))

return results
