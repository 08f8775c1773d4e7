// ToolError vs other thrown errors, non-JSON return values, hooks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { codemode, ANY, ORDER_INPUT } from "./helpers.mjs";

const { CodeMode, ToolError } = codemode;

function capture() {
  const logged = [];
  return { logged, onHandlerError: (context, error) => logged.push([context, error]) };
}

test("a ToolError's message reaches the program", async () => {
  const cm = new CodeMode({
    language: "lua",
    tools: { orders: { get: { description: "Get.", input: ANY, execute: () => { throw new ToolError("Order o9 is archived; call tools.orders.restore first."); } } } },
  });
  const r = await cm.execute("local ok, e = pcall(tools.orders.get, {})\nreturn tostring(e)");
  assert.equal(r.ok, true);
  assert.match(r.value, /Order o9 is archived; call tools\.orders\.restore first\./);
  assert.equal(r.toolCalls[0].status, "failure");
  const uncaught = await cm.execute("return tools.orders.get({})");
  assert.deepEqual([uncaught.error.kind, uncaught.error.message], ["ToolFailure", "Order o9 is archived; call tools.orders.restore first."]);
});

test("other thrown errors (sync or async) are hidden from the program and passed to onHandlerError", async () => {
  const { logged, onHandlerError } = capture();
  const secret = new Error("database password is hunter2");
  const cm = new CodeMode({
    language: "javascript",
    onHandlerError,
    tools: {
      a: {
        boom: { description: "B.", input: ANY, execute: () => { throw secret; } },
        later: { description: "L.", input: ANY, execute: async () => { await null; throw new TypeError("internal detail"); } },
        polite: { description: "P.", input: ANY, execute: async () => { throw new ToolError("Try again with a smaller page."); } },
      },
    },
  });
  const r1 = await cm.execute("return await tools.a.boom({})");
  assert.deepEqual([r1.error.kind, r1.error.message], ["ToolFailure", "Tool 'a.boom' failed."]);
  assert.ok(!JSON.stringify(r1).includes("hunter2"));
  const r2 = await cm.execute("return await tools.a.later({})");
  assert.equal(r2.error.message, "Tool 'a.later' failed.");
  const r3 = await cm.execute("return await tools.a.polite({})");
  assert.deepEqual([r3.error.kind, r3.error.message], ["ToolFailure", "Try again with a smaller page."]);
  assert.deepEqual(logged.map(([c]) => c), ["tool 'a.boom'", "tool 'a.later'"]);
  assert.equal(logged[0][1], secret);
  assert.match(logged[1][1].message, /internal detail/);
});

const cycle = {};
cycle.self = cycle;
for (const [name, value, where] of [
  ["a BigInt", { n: 10n }, "$.n: the BigInt 10n is not JSON data"],
  ["a function", { items: [1, () => 2] }, "$.items[1]: a function is not JSON data"],
  ["a cycle", cycle, "nested deeper than"],
  ["NaN", Number.NaN, "$: NaN is not a JSON number"],
  ["a Map", new Map(), "$: a Map is not JSON data"],
  ["an un-awaited promise", { p: Promise.resolve(1) }, "$.p: a Promise is not JSON data; await it"],
  ["a symbol", [Symbol("s")], "$[0]: a symbol is not JSON data"],
]) {
  test(`a handler returning ${name} gives InvalidToolOutput saying where`, async () => {
    const cm = new CodeMode({ language: "lua", tools: { t: { bad: { description: "Bad.", input: ANY, execute: () => value } } } });
    const r = await cm.execute("return tools.t.bad({})");
    assert.equal(r.error.kind, "InvalidToolOutput");
    assert.ok(r.error.message.includes(where), r.error.message);
    assert.equal(r.toolCalls[0].status, "failure");
  });
}

test("JSON.stringify's conversions: Dates become strings, undefined properties are left out", async () => {
  const when = new Date(Date.UTC(2026, 0, 2));
  const cm = new CodeMode({ language: "lua", tools: { t: { d: { description: "D.", input: ANY, execute: () => ({ when, gone: undefined, list: [undefined] }) } } } });
  const r = await cm.execute("return tools.t.d({})");
  assert.deepEqual(r.value, { when: "2026-01-02T00:00:00.000Z", list: [null] });
});

test("the input and output schemas are checked by the library", async () => {
  const cm = new CodeMode({
    language: "lua",
    tools: {
      t: {
        get: { description: "G.", input: ORDER_INPUT, execute: (i) => i },
        n: { description: "N.", input: ANY, output: { type: "object", properties: { n: { type: "integer" } } }, execute: () => ({ n: "x" }) },
      },
    },
  });
  const r1 = await cm.execute("return tools.t.get({ id = 5 })");
  assert.equal(r1.error.kind, "InvalidToolInput");
  const r2 = await cm.execute("return tools.t.n({})");
  assert.equal(r2.error.kind, "InvalidToolOutput");
});

test("a toolBefore hook denies a call; toolAfter sees every outcome", async () => {
  const after = [];
  const echo = (i) => i;
  const cm = new CodeMode({
    language: "lua",
    tools: { items: { get: { description: "Get.", input: ANY, execute: echo }, delete: { description: "Delete.", input: ANY, execute: echo } } },
    hooks: {
      toolBefore: (name) => (name.endsWith(".delete") ? `${name} is not allowed here; archive the item instead.` : undefined),
      toolAfter: (name, input, outcome) => { after.push([name, input, outcome]); },
    },
  });
  const r = await cm.execute("local ok, err = pcall(tools.items.delete, { id = 1 })\nreturn { tools.items.get({ id = 2 }).id, tostring(err) }");
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.value[0], 2);
  assert.match(r.value[1], /items\.delete is not allowed here; archive the item instead\./);
  assert.deepEqual(r.toolCalls.map((c) => c.status), ["denied", "success"]);
  assert.deepEqual(after, [
    ["items.delete", { id: 1 }, { status: "denied", message: "items.delete is not allowed here; archive the item instead." }],
    ["items.get", { id: 2 }, { status: "success", value: { id: 2 } }],
  ]);
});

test("async hooks; a throwing before hook denies with the library's message; ToolError keeps its own", async () => {
  const { logged, onHandlerError } = capture();
  const echo = (i) => i;
  const cm = new CodeMode({
    language: "javascript",
    onHandlerError,
    tools: { a: { x: { description: "X.", input: ANY, execute: echo }, y: { description: "Y.", input: ANY, execute: echo } } },
    hooks: {
      toolBefore: async (name) => {
        await null;
        if (name === "a.x") throw new Error("bug in the hook");
        throw new ToolError("y needs approval; ask the user first.");
      },
    },
  });
  const r = await cm.execute(`
    const out = [];
    for (const f of [tools.a.x, tools.a.y]) { try { await f({}); } catch (e) { out.push(e.message); } }
    return out;`);
  assert.deepEqual(r.value, ["The host refused this call.", "y needs approval; ask the user first."]);
  assert.deepEqual(r.toolCalls.map((c) => c.status), ["denied", "denied"]);
  assert.deepEqual(logged.map(([c]) => c), ["hook toolBefore"]);
});

test("the seed's hook names: tool.before/after with { name, input }, extension.before with its extension", async () => {
  const { Extension } = codemode;
  const seen = [];
  const echo = (i) => i;
  const cm = new CodeMode({
    language: "javascript",
    tools: { orders: { refund: { description: "Refund.", input: ANY, execute: echo }, get: { description: "Get.", input: ANY, execute: echo } } },
    extensions: [Extension.make({ name: "web", globals: { fetch: (url) => `body of ${url}` } })],
    hooks: {
      "tool.before": (call) => { seen.push(["before", call]); return call.name === "orders.refund" ? "refunds need approval" : undefined; },
      "tool.after": (call, outcome) => { seen.push(["after", call.name, outcome.status]); },
      "extension.before": (call) => { seen.push(["ext", call]); },
    },
  });
  const r = await cm.execute(`
    let denied;
    try { await tools.orders.refund({ id: 7 }); } catch (e) { denied = e.message; }
    const o = await tools.orders.get({ id: 8 });
    return [denied, o.id, fetch("u")];`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.value, ["refunds need approval", 8, "body of u"]);
  assert.deepEqual(seen, [
    ["before", { name: "orders.refund", input: { id: 7 } }],
    ["after", "orders.refund", "denied"],
    ["before", { name: "orders.get", input: { id: 8 } }],
    ["after", "orders.get", "success"],
    ["ext", { extension: "web", name: "fetch", args: ["u"] }],
  ]);
  assert.throws(() => new CodeMode({ hooks: { toolBefore: () => {}, "tool.before": () => {} } }), /either toolBefore or "tool.before"/);
});
