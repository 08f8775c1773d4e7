// A failing tool caught, the program going on.
const got = [];
for (const id of ["a", "bad", "b"]) {
  try {
    const o = await tools.orders.get({ id });
    got.push(o.total);
  } catch (e) {
    console.log("failed:", e.message);
    got.push(-1);
  }
}
return got;
