// Promise.allSettled with a failure among them, then a follow-up call.
const results = await Promise.allSettled(["a", "bad", "bb"].map((id) => tools.orders.get({ id })));
const ok = results.filter((r) => r.status === "fulfilled").map((r) => r.value.id);
const bad = results.filter((r) => r.status === "rejected").map((r) => r.reason.message);
await tools.mail.send({ ok, bad });
return { ok, bad };
