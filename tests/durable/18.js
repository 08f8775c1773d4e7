// URL and URLSearchParams built before a call and read after it.
const u = new URL("https://shop.example/orders?limit=2");
const params = new URLSearchParams(u.search);
params.append("id", "a");
const o = await tools.orders.get({ id: params.get("id") });
u.searchParams.set("total", String(o.total));
return { href: u.href, params: params.toString() };
