local y = 1 < nil
