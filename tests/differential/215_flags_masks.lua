local PERMS = { read = 1 << 0, write = 1 << 1, exec = 1 << 2, admin = 1 << 7 }
local names = { "read", "write", "exec", "admin" }
local function describe(mask)
  local on = {}
  for _, n in ipairs(names) do if mask & PERMS[n] ~= 0 then on[#on + 1] = n end end
  return string.format("0x%02x [%s]", mask, table.concat(on, ","))
end
local m = 0
m = m | PERMS.read | PERMS.write
print(describe(m))
m = m ~ PERMS.write
print(describe(m))
m = m | PERMS.admin | PERMS.exec
print(describe(m))
m = m & ~PERMS.read
print(describe(m))
print(describe(0xFF), describe(0))
print((0xF0 >> 4) | (0x0F << 4), 0xABCD & 0xFF00, ~0xFF & 0xFFFF)
return m
