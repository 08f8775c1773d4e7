// Every limit tripping: timeout (busy program, hanging handler), tool calls, output, memory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { codemode, ANY, lookupOrder } from "./helpers.mjs";

const { CodeMode } = codemode;

test("timeoutMs stops a busy program", async () => {
  for (const [language, code] of [["lua", "while true do end"], ["javascript", "while (true) {}"]]) {
    const r = await new CodeMode({ language, limits: { timeoutMs: 100 } }).execute(code);
    assert.equal(r.error.kind, "TimeoutExceeded");
    assert.match(r.error.message, /100ms/);
  }
});

test("timeoutMs interrupts a handler that never settles, and the toolAfter hook sees it", async () => {
  const after = [];
  const cm = new CodeMode({
    language: "lua",
    limits: { timeoutMs: 100 },
    tools: { t: { hang: { description: "Hang.", input: ANY, execute: () => new Promise(() => {}) } } },
    hooks: { toolAfter: (name, input, outcome) => { after.push([name, outcome.status]); } },
  });
  const start = Date.now();
  const r = await cm.execute("return tools.t.hang({})");
  assert.ok(Date.now() - start < 2000);
  assert.equal(r.error.kind, "TimeoutExceeded");
  assert.equal(r.toolCalls[0].status, "interrupted");
  assert.deepEqual(after, [["t.hang", "interrupted"]]);
});

test("maxToolCalls", async () => {
  const cm = new CodeMode({ language: "lua", limits: { maxToolCalls: 2 }, tools: { orders: { lookup: lookupOrder } } });
  const r = await cm.execute('for i = 1, 3 do tools.orders.lookup({ id = "o1" }) end return 1');
  assert.equal(r.error.kind, "ToolCallLimitExceeded");
  assert.equal(r.toolCalls.length, 2);
});

test("maxOutputBytes cuts the value and says so", async () => {
  const r = await new CodeMode({ language: "lua", limits: { maxOutputBytes: 1024 } }).execute('return string.rep("x", 5000)');
  assert.equal(r.ok, true);
  assert.equal(r.truncated, true);
  assert.ok(r.value.startsWith('"' + "x".repeat(100)));
  assert.match(r.value, /result truncated/);
  assert.equal(r.warnings.at(-1).kind, "Truncated");
});

test("maxMemoryBytes", async () => {
  for (const [language, code] of [
    ["lua", 'local t = {} for i = 1, 1e6 do t[i] = string.rep("y", 100) .. i end return #t'],
    ["javascript", 'const t = []; for (let i = 0; i < 1e6; i++) t.push("y".repeat(100) + i); return t.length;'],
  ]) {
    const r = await new CodeMode({ language, limits: { maxMemoryBytes: 1 << 20 } }).execute(code);
    assert.equal(r.ok, false, language);
    assert.match(r.error.message.toLowerCase(), /memory/);
  }
});
