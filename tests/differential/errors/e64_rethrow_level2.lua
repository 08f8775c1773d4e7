local ok, e = pcall(error, "inner")
error(e, 2)
