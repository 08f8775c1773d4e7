local z = 2^"x"
