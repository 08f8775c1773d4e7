local s = ("x"):rep(1e10)
