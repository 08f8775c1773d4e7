return tools.orders.get({ id = "a" }).total
