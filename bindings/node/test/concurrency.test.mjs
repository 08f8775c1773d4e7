// Many executions at once, the guest off the JS thread, AbortSignal → interrupted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { codemode, ANY, sleep } from "./helpers.mjs";

const { CodeMode } = codemode;

test("100 concurrent executions all have their async handler in flight at once", async () => {
  const N = 100;
  let arrived = 0;
  let release;
  const gate = new Promise((r) => { release = r; });
  const cm = new CodeMode({
    language: "lua",
    limits: { timeoutMs: 60_000 },
    tools: {
      t: {
        wait: {
          description: "Wait for every caller.",
          input: ANY,
          execute: async ({ i }) => {
            arrived += 1;
            if (arrived === N) release();
            await gate;
            return { i, arrived };
          },
        },
      },
    },
  });
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) => cm.execute(`local r = tools.t.wait({ i = ${i} }) return { r.i, r.arrived }`)),
  );
  for (const [i, r] of results.entries()) {
    assert.equal(r.ok, true, JSON.stringify(r));
    // Every handler saw all N arrive before any returned: they ran concurrently.
    assert.deepEqual(r.value, [i, N]);
  }
});

test("the guest runs off the JS thread: timers keep firing during a busy program", async () => {
  let ticks = 0;
  const timer = setInterval(() => { ticks += 1; }, 5);
  try {
    const r = await new CodeMode({ language: "lua", limits: { timeoutMs: 400 } }).execute("while true do end");
    assert.equal(r.error.kind, "TimeoutExceeded");
  } finally {
    clearInterval(timer);
  }
  // 400 ms at one tick per 5 ms is 80; a blocked JS thread would give at most 1.
  assert.ok(ticks >= 20, `only ${ticks} ticks`);
});

test("an AbortSignal interrupts the execution: after hooks run, then the promise rejects with the Result attached", async () => {
  const events = [];
  let called;
  const inCall = new Promise((r) => { called = r; });
  const cm = new CodeMode({
    language: "javascript",
    tools: { t: { hang: { description: "Hang.", input: ANY, execute: () => { called(); return new Promise(() => {}); } } } },
    hooks: { toolAfter: (name, input, outcome) => { events.push(`after ${name} ${outcome.status}`); } },
  });
  const controller = new AbortController();
  const running = cm.execute("return await tools.t.hang({ n: 1 })", { signal: controller.signal });
  await inCall;
  controller.abort();
  await assert.rejects(running, (e) => {
    events.push("rejected");
    assert.equal(e.name, "AbortError");
    assert.equal(e.result.ok, false);
    assert.deepEqual(e.result.toolCalls, [{ name: "t.hang", input: { n: 1 }, status: "interrupted" }]);
    assert.match(e.result.error.message, /cancelled/);
    return true;
  });
  assert.deepEqual(events, ["after t.hang interrupted", "rejected"]);
});

test("an already aborted signal rejects with its reason and runs no tool", async () => {
  let calls = 0;
  const cm = new CodeMode({ language: "lua", tools: { t: { f: { description: "F.", input: ANY, execute: () => { calls += 1; } } } } });
  const reason = new Error("user went away");
  await assert.rejects(cm.execute("return tools.t.f({})", { signal: AbortSignal.abort(reason) }), (e) => e === reason);
  await sleep(10);
  assert.equal(calls, 0);
  // The signal only ends its own execution.
  const ok = await cm.execute("return 1", { signal: new AbortController().signal });
  assert.deepEqual(ok.value, 1);
});
