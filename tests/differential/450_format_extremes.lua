local r = {}
local function add(s) r[#r + 1] = s; print(s) end
add(string.format("%.99f", 1/3))
add(string.format("%99.3f|", -1.5))
add(string.format("%.60g", 0.1))
add(string.format("%099d", -42))
add(string.format("%-99s|", "x"))
add(string.format("%.99e", 2^-1074))
add(string.format("%.50a", 1.0))
add(string.format("%5.0f|%-+7.1e|%+g", 2.5, 12345, 0.0))
add(string.format("%.0e|%.1g|%#.1g", 15, 0.15, 1))
add(string.format("%20.10s|", "abcdefghijklmnopqrstuvwxyz"))
add(tostring(string.format("%c%c", 0xE2, 0x82):byte(2)))
add(string.format("%.f|%5.f", 2.5, 3.5))
add(string.format("%#5x|%#-8o|%-#10X", 10, 10, 10))
add(string.format("%+.3d|% .3d", 5, 5))
add(string.format("%.3x", 1))
add(string.format("%%|%s|", 1)); add(select(2, pcall(string.format, "%5%", 1)))
return r
