local order = { qty = "three", price = 2 }
print(order.price)
return order.qty * order.price
