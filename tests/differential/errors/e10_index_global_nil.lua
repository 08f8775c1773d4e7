print("looking up")
return settings.timeout
