local function msg(f, ...)
  local ok, e = pcall(f, ...)
  print(ok, e)
  return e
end
msg(string.rep)
msg(string.rep, "x", "y")
msg(string.char, 256)
msg(string.char, "a")
msg(table.concat, "notatable")
msg(table.insert, nil, 1)
msg(math.floor, {})
msg(string.byte, "abc", {})
msg(tonumber, "10", 99)
msg(string.format, "%d", "x")
msg(select, "x")
msg(ipairs)
msg(utf8.char, "z")
return "done"
