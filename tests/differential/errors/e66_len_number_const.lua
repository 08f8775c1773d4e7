local n = #5
