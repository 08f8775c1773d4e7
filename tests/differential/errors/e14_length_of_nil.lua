local resp = { data = {} }
print("items:", #resp.data)
return #resp.items
