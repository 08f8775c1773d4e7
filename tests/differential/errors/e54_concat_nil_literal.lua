local v = ("x"):rep(3, 4, 5) .. nil
