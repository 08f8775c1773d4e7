// Durable executions: pausing at payments.refund, resuming with approvals, values, errors and
// denials, in this runtime, a fresh one and a fresh process; every refusal is a SnapshotError.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { codemode, ANY } from "./helpers.mjs";
import { payments } from "./payments.mjs";

const { CodeMode, SnapshotError, MemoryStore } = codemode;

const PROGRAM = `local o = tools.orders.lookup({ id = "o1" })
print("refunding " .. o.id)
local r = tools.payments.refund({ order = o.id, amount = o.total })
return { refund = r.id, total = o.total }
`;

const TWO_REFUNDS = `local a = tools.payments.refund({ order = "o1", amount = 42 })
print("first " .. a.id)
local b = tools.payments.refund({ order = "o2", amount = 7 })
return { a.id, b.id }
`;

const PAUSING = { pauseOn: ["payments.refund"] };

test("pausing at payments.refund, then approving, runs it once and gives the uninterrupted Result", async () => {
  const straight = await payments([]).execute(PROGRAM);
  assert.deepEqual(straight.value, { refund: "r-o1", total: 42 });

  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const paused = await cm.execute(PROGRAM);
  assert.deepEqual(paused, {
    ok: false,
    status: "paused",
    pending: [{ id: 2, name: "payments.refund", input: { order: "o1", amount: 42 }, location: { line: 3, column: 32 } }],
    logs: ["refunding o1"],
    toolCalls: [{ name: "orders.lookup", input: { id: "o1" }, status: "success" }],
  });
  assert.ok(Buffer.isBuffer(paused.snapshot));
  assert.equal(paused.snapshot.subarray(0, 8).toString(), "CODEMODE");
  assert.match(paused.snapshotId, /^[0-9a-f]{32}$/);
  // Not enumerable: JSON.stringify gives the wire shape.
  assert.deepEqual(Object.keys(paused), ["ok", "status", "pending", "logs", "toolCalls"]);
  assert.deepEqual(refunds, []);

  const done = await cm.resume(paused, { 2: "run" });
  assert.deepEqual(refunds, [{ order: "o1", amount: 42 }]);
  assert.deepEqual(done, straight);
  assert.equal(JSON.stringify(done), JSON.stringify(straight));
  assert.equal(done.snapshot, undefined);
  // The same bytes, as a Uint8Array, approved with { approve: true } in a fresh runtime object.
  const again = await payments(refunds, PAUSING).resume(new Uint8Array(paused.snapshot), new Map([[2, { approve: true }]]));
  assert.deepEqual(again, straight);
  assert.equal(refunds.length, 2);
});

test("a denial is a catchable failure in the program; an error reply a failure", async () => {
  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const paused = await cm.execute(`local ok, err = pcall(tools.payments.refund, { order = "o1", amount = 42 })
if ok then return "refunded" end
return "not refunded: " .. tostring(err)`);
  const [call] = paused.pending;
  const denied = await cm.resume(paused, { [call.id]: { deny: "Refunds over 40 need a manager." } });
  assert.equal(denied.value, "not refunded: Refunds over 40 need a manager.");
  assert.deepEqual(denied.toolCalls, [{ name: "payments.refund", input: { order: "o1", amount: 42 }, status: "denied" }]);
  const failed = await cm.resume(paused.snapshot, { [call.id]: { error: "The bank is down." } });
  assert.equal(failed.value, "not refunded: The bank is down.");
  assert.equal(failed.toolCalls[0].status, "failure");
  const uncaught = await cm.resume(await cm.execute(PROGRAM), { 2: { deny: "No." } });
  assert.deepEqual([uncaught.ok, uncaught.error.kind, uncaught.error.message], [false, "ToolFailure", "No."]);
  assert.deepEqual(refunds, []);
});

test("a value reply answers the call without running the tool", async () => {
  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const done = await cm.resume(await cm.execute(PROGRAM), { 2: { value: { id: "manual-7" } } });
  assert.deepEqual(done.value, { refund: "manual-7", total: 42 });
  assert.equal(done.toolCalls[1].status, "success");
  assert.deepEqual(refunds, []);
});

test("a second pause in the same run", async () => {
  const straight = await payments([]).execute(TWO_REFUNDS);
  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const first = await cm.execute(TWO_REFUNDS);
  assert.deepEqual(first.pending.map((p) => p.input.order), ["o1"]);
  const second = await cm.resume(first, { [first.pending[0].id]: "run" });
  assert.equal(second.status, "paused");
  assert.deepEqual(second.pending.map((p) => p.input.order), ["o2"]);
  assert.deepEqual(second.toolCalls, [{ name: "payments.refund", input: { order: "o1", amount: 42 }, status: "success" }]);
  assert.deepEqual(second.logs, ["first r-o1"]);
  assert.notEqual(second.snapshotId, first.snapshotId);
  const done = await cm.resume(second, { [second.pending[0].id]: "run" });
  assert.deepEqual(done, straight);
  assert.deepEqual(refunds.map((r) => r.order), ["o1", "o2"]);
});

test("a snapshot written to a file resumes in a fresh node process", async () => {
  const straight = await payments([]).execute(PROGRAM);
  const paused = await payments([], PAUSING).execute(PROGRAM);
  const file = join(mkdtempSync(join(tmpdir(), "codemode-durable-")), "refund.snapshot");
  writeFileSync(file, paused.snapshot);
  const script = `
    const { readFileSync } = require("node:fs");
    import(process.argv[1]).then(async ({ payments }) => {
      const refunds = [];
      const r = await payments(refunds, { pauseOn: ["payments.refund"] }).resume(readFileSync(process.argv[2]), { 2: "run" });
      console.log(JSON.stringify({ result: r, refunds }));
    });`;
  const self = fileURLToPath(new URL("./payments.mjs", import.meta.url));
  const out = execFileSync(process.execPath, ["-e", script, self, file], { encoding: "utf8", timeout: 60_000 });
  const got = JSON.parse(out.trim().split("\n").at(-1));
  assert.deepEqual(got.result, straight);
  assert.deepEqual(got.refunds, [{ order: "o1", amount: 42 }]);
});

test("refusals reject with a SnapshotError saying why", async () => {
  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const paused = await cm.execute(PROGRAM);
  const snap = paused.snapshot;
  const refused = async (promise, message) => {
    await assert.rejects(promise, (e) => {
      assert.ok(e instanceof SnapshotError, `${e}`);
      assert.equal(e.name, "SnapshotError");
      assert.ok(e.message.startsWith("The snapshot cannot be resumed: "), e.message);
      assert.ok(e.message.includes(message), e.message);
      return true;
    });
  };
  await refused(cm.resume(Buffer.from("not a snapshot"), { 2: "run" }), "these bytes are not a codemode snapshot");
  await refused(cm.resume(snap.subarray(0, snap.length >> 1), { 2: "run" }), "it is damaged");
  await refused(cm.resume(snap, {}), "no reply was given for pending call 2 (payments.refund)");
  await refused(cm.resume(snap, { 2: "run", 9: "run" }), "a reply was given for call 9");
  const other = new CodeMode({
    language: "lua",
    tools: { orders: { lookup: { description: "Look up an order.", input: ANY, execute: (i) => i } },
      payments: { refund: { description: "Refund an order.", input: ANY, execute: (i) => i },
        void: { description: "Void a payment.", input: ANY, execute: (i) => i } } },
  });
  await refused(other.resume(snap, { 2: "run" }), "taken against other tools");
  await refused(payments([], { language: "javascript" }).resume(snap, { 2: "run" }), "taken from a Lua program");
  assert.deepEqual(refunds, []);
  // Arguments that are not replies are TypeErrors.
  await assert.rejects(cm.resume(snap, { 2: { ok: true } }), { name: "TypeError", message: /replies\[2\]: the reply has the unknown key "ok"/ });
  await assert.rejects(cm.resume(snap, { x: "run" }), { name: "TypeError", message: /not a pending call id/ });
  await assert.rejects(cm.resume(await cm.execute("return 1"), {}), { name: "TypeError", message: /this Result is not paused/ });
  await assert.rejects(cm.resume("bytes", {}), { name: "TypeError", message: /snapshot must be a Buffer/ });
});

test("tampered signed bytes are refused", async () => {
  const refunds = [];
  const key = Buffer.alloc(32, "k");
  const cm = payments(refunds, { ...PAUSING, snapshotKey: key });
  const paused = await cm.execute(PROGRAM);
  assert.equal(paused.snapshot.indexOf(key), -1);
  for (const at of [13, paused.snapshot.length >> 1, paused.snapshot.length - 1]) {
    const tampered = Buffer.from(paused.snapshot);
    tampered[at] ^= 1;
    await assert.rejects(cm.resume(tampered, { 2: "run" }), { name: "SnapshotError", message: /signature does not match/ });
  }
  await assert.rejects(payments([], PAUSING).resume(paused, { 2: "run" }), { name: "SnapshotError", message: /no snapshot key/ });
  await assert.rejects(payments([], { snapshotKey: "another" }).resume(paused, { 2: "run" }), { name: "SnapshotError", message: /signature does not match/ });
  assert.deepEqual(refunds, []);
  assert.equal((await cm.resume(paused, { 2: "run" })).ok, true);
  assert.equal(refunds.length, 1);
});

test("a store keeps a snapshot single-use", async () => {
  const refunds = [];
  const cm = payments(refunds, PAUSING);
  const store = new MemoryStore();
  const paused = await cm.execute(PROGRAM);
  assert.equal((await cm.resume(paused, { 2: "run" }, { store })).ok, true);
  await assert.rejects(cm.resume(paused, { 2: "run" }, { store }), { name: "SnapshotError", message: /resumed already/ });
  assert.equal(refunds.length, 1);
  assert.equal((await cm.resume(await cm.execute(PROGRAM), { 2: "run" }, { store })).ok, true);
  assert.equal(refunds.length, 2);
  const elsewhere = { claim: (id) => { throw new Error(`claimed elsewhere: ${id}`); } };
  await assert.rejects(cm.resume(paused, { 2: "run" }, { store: elsewhere }), { message: `claimed elsewhere: ${paused.snapshotId}` });
  assert.throws(() => store.claim("xyz"), { name: "TypeError", message: /not a snapshot id/ });
  assert.equal(refunds.length, 2);
});

test("pauseBefore picks calls; toolBefore runs when they are approved", async () => {
  const seen = [];
  const refunds = [];
  const cm = payments(refunds, {
    hooks: {
      pauseBefore: (name, input) => name === "payments.refund" && input.amount > 10,
      toolBefore: (name) => { seen.push(name); },
    },
  });
  const paused = await cm.execute(TWO_REFUNDS);
  assert.deepEqual(paused.pending.map((p) => p.input), [{ order: "o1", amount: 42 }]);
  assert.deepEqual(seen, []);
  const done = await cm.resume(paused, { [paused.pending[0].id]: "run" });
  assert.deepEqual(done.value, ["r-o1", "r-o2"]);
  assert.deepEqual(seen, ["payments.refund", "payments.refund"]);
  assert.equal(refunds.length, 2);
});

test("pauseBefore must be synchronous; one that throws pauses the call", async () => {
  assert.throws(() => payments([], { hooks: { pauseBefore: async () => true } }), { name: "TypeError", message: /pauseBefore must answer at once/ });
  const reported = [];
  const refunds = [];
  const cm = payments(refunds, {
    hooks: { pauseBefore: () => { throw new Error("oops"); } },
    onHandlerError: (context, e) => reported.push([context, e.message]),
  });
  const paused = await cm.execute(PROGRAM);
  assert.equal(paused.status, "paused");
  assert.equal(paused.pending[0].name, "orders.lookup");
  assert.deepEqual(reported, [["hook pauseBefore", "oops"]]);
  const promising = payments([], { hooks: { pauseBefore: () => Promise.resolve(false) }, onHandlerError: () => {} });
  assert.equal((await promising.execute(PROGRAM)).status, "paused");
  assert.deepEqual(refunds, []);
});

test("pauseOn naming no tool is a TypeError", () => {
  assert.throws(() => payments([], { pauseOn: ["payments.refnd"] }), {
    name: "TypeError",
    message: "pauseOn: no tool has the path 'payments.refnd', so nothing would pause; give a tool's full path (the tools: orders.lookup, payments.refund)",
  });
  assert.throws(() => payments([], { pauseOn: "payments.refund" }), { name: "TypeError", message: /pauseOn: expected an array/ });
});

test("aborting the signal interrupts a resumed execution", async () => {
  const events = [];
  let called;
  const inCall = new Promise((r) => { called = r; });
  const cm = new CodeMode({
    language: "lua",
    tools: { payments: { refund: { description: "Refund.", input: ANY, execute: () => { called(); return new Promise(() => {}); } } } },
    hooks: { toolAfter: (name, input, outcome) => { events.push(`after ${name} ${outcome.status}`); } },
    pauseOn: ["payments.refund"],
  });
  const paused = await cm.execute("return tools.payments.refund({ n = 1 })");
  const controller = new AbortController();
  const running = cm.resume(paused, { [paused.pending[0].id]: "run" }, { signal: controller.signal });
  await inCall;
  controller.abort();
  await assert.rejects(running, (e) => {
    assert.equal(e.name, "AbortError");
    assert.deepEqual(e.result.toolCalls, [{ name: "payments.refund", input: { n: 1 }, status: "interrupted" }]);
    assert.match(e.result.error.message, /cancelled/);
    return true;
  });
  assert.deepEqual(events, ["after payments.refund interrupted"]);
});

const JS_PROGRAM = `const o = await tools.orders.lookup({ id: "o1" });
console.log("refunding " + o.id);
const [a, b] = await Promise.all([
  tools.payments.refund({ order: o.id, amount: o.total }),
  tools.payments.refund({ order: "o2", amount: 7 }),
]);
return { refunds: [a.id, b.id], total: o.total };
`;

test("a JavaScript run pauses at two calls in flight and resumes in a fresh runtime", async () => {
  const straight = await payments([], { language: "js" }).execute(JS_PROGRAM);
  assert.deepEqual(straight.value, { refunds: ["r-o1", "r-o2"], total: 42 });
  const refunds = [];
  const paused = await payments(refunds, { language: "js", ...PAUSING }).execute(JS_PROGRAM);
  assert.equal(paused.status, "paused");
  assert.deepEqual(
    paused.pending.map((p) => p.input),
    [{ order: "o1", amount: 42 }, { order: "o2", amount: 7 }],
  );
  assert.deepEqual(refunds, []);
  const replies = Object.fromEntries(paused.pending.map((p) => [p.id, "run"]));
  const done = await payments(refunds, { language: "js", ...PAUSING }).resume(paused.snapshot, replies);
  assert.equal(JSON.stringify(done), JSON.stringify(straight));
  assert.deepEqual(refunds, [{ order: "o1", amount: 42 }, { order: "o2", amount: 7 }]);
});
