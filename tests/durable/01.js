// Sequential calls, one after another.
const list = await tools.orders.list({});
const first = await tools.orders.get({ id: list[0].id });
const second = await tools.orders.get({ id: list[1].id });
return { count: list.length, totals: [first.total, second.total] };
