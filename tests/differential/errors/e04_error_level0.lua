print("start")
error("no position here", 0)
