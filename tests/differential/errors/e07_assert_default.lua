local ok = false
assert(ok)
