local s = "5" + {}
