// The seed README's quick start, both guests, namespaces, handlers, catalog and search.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { codemode, lookupOrder, ORDER_INPUT, ANY, sleep } from "./helpers.mjs";

const { CodeMode, Namespace } = codemode;

const QUICK_START = `
local order = tools.orders.lookup({ id = "order_42" })
return { id = order.id, needsAttention = order.status ~= "complete" }
`;

test("the seed README's quick start gives the documented Result", async () => {
  const runtime = new CodeMode({ language: "lua", tools: { orders: { lookup: lookupOrder } } });
  const result = await runtime.execute(QUICK_START);
  assert.deepEqual(result, {
    ok: true,
    value: { id: "order_42", needsAttention: true },
    toolCalls: [{ name: "orders.lookup", input: { id: "order_42" }, status: "success" }],
  });
  // Wire order: ok, value, toolCalls.
  assert.deepEqual(Object.keys(result), ["ok", "value", "toolCalls"]);
});

test("the package loads from the repository root as require('./bindings/node')", () => {
  const require = createRequire(new URL("../../../package.json", import.meta.url));
  const pkg = require("./bindings/node");
  assert.equal(typeof pkg.CodeMode, "function");
  assert.equal(typeof pkg.ToolError, "function");
});

test("JavaScript guests: 'javascript', 'js', and the seed's default", async () => {
  for (const language of ["javascript", "js", undefined]) {
    const cm = new CodeMode({ language, tools: { orders: { lookup: lookupOrder } } });
    assert.equal(cm.language, "javascript");
    const r = await cm.execute(`
      const [a, b] = await Promise.all([tools.orders.lookup({ id: "a" }), tools.orders.lookup({ id: "b" })]);
      console.log("got", a.id, b.id);
      return { ids: [a.id, b.id], open: a.status === "open" };
    `);
    assert.deepEqual(r.value, { ids: ["a", "b"], open: true });
    assert.deepEqual(r.logs, ["got a b"]);
    assert.deepEqual(r.toolCalls.map((c) => c.status), ["success", "success"]);
  }
});

test("nested records and dotted keys make the same namespaces", async () => {
  const echo = { description: "Echo.", input: ANY, execute: (i) => i };
  const cm = new CodeMode({
    language: "lua",
    tools: { "a.b.echo": echo, a: { c: { echo } }, "context7.resolve-library-id": echo },
  });
  const r = await cm.execute(`return { tools.a.b.echo({ n = 1 }).n, tools.a.c.echo({ n = 2 }).n,
    tools.context7["resolve-library-id"]({ n = 3 }).n }`);
  assert.deepEqual(r.value, [1, 2, 3]);
  assert.deepEqual(r.toolCalls.map((c) => c.name), ["a.b.echo", "a.c.echo", "context7.resolve-library-id"]);
  assert.deepEqual(cm.catalog.map((e) => e.path), ["a.b.echo", "a.c.echo", "context7.resolve-library-id"]);
});

test("sync and async handlers, and one that returns nothing", async () => {
  const cm = new CodeMode({
    language: "lua",
    tools: {
      t: {
        sync: { description: "S.", input: ANY, execute: (i) => ({ twice: i.n * 2 }) },
        later: { description: "L.", input: ANY, execute: async (i) => { await sleep(5); return [i.n, "late"]; } },
        promise: { description: "P.", input: ANY, execute: (i) => Promise.resolve(i.n + 1) },
        none: { description: "N.", input: ANY, execute: () => {} },
      },
    },
  });
  const r = await cm.execute(`return { tools.t.sync({ n = 4 }).twice, tools.t.later({ n = 5 }),
    tools.t.promise({ n = 6 }), tools.t.none({}) == nil }`);
  assert.deepEqual(r.value, [8, [5, "late"], 7, true]);
});

test("catalog and search", () => {
  const cm = new CodeMode({
    language: "lua",
    tools: {
      orders: Namespace("Purchases, fulfillment, and shipment tracking", { lookup: lookupOrder }),
      users: { get: { description: "Get a user by id.", input: ORDER_INPUT, execute: (i) => i } },
    },
  });
  const catalog = cm.catalog;
  assert.deepEqual(catalog.map((e) => [e.path, e.description]), [
    ["orders.lookup", "Look up an order by ID"],
    ["users.get", "Get a user by id."],
  ]);
  assert.match(catalog[0].signature, /tools\.orders\.lookup/);
  assert.match(cm.catalogFor("javascript")[0].signature, /Promise/);
  // The namespace's description is searched for its tools.
  const page = cm.search("shipment");
  assert.deepEqual(page.items.map((i) => i.path), ["orders.lookup"]);
  assert.equal(page.remaining, 0);
  assert.equal(page.next, null);
  const browse = cm.search("", { limit: 1 });
  assert.equal(browse.items.length, 1);
  assert.deepEqual(browse.next, { offset: 1 });
  assert.throws(() => cm.search("x", { limit: 0 }), /limit/);
  const text = cm.instructions({ budget: 2000 });
  assert.match(text, /orders\.lookup/);
});

test("extensions: a global function and a record of functions", async () => {
  const seen = [];
  const cm = new CodeMode({
    language: "javascript",
    extensions: [
      {
        name: "host",
        globals: {
          double: (n) => n * 2,
          fs: { read: async (p) => `contents of ${p}` },
        },
      },
    ],
    hooks: { extensionAfter: (name, args, outcome) => { seen.push([name, args, outcome.status]); } },
  });
  const r = await cm.execute(`return [double(21), await fs.read("/a")];`);
  assert.deepEqual(r.value, [42, "contents of /a"]);
  assert.deepEqual(seen, [["double", [21], "success"], ["fs.read", ["/a"], "success"]]);
});

test("construction errors: TypeError for shapes and paths, RangeError for limits", () => {
  assert.throws(() => new CodeMode({ tools: { "a..b": lookupOrder } }), (e) => e instanceof TypeError && /empty segment/.test(e.message));
  assert.throws(() => new CodeMode({ language: "python" }), (e) => e instanceof TypeError && /unknown language/.test(e.message));
  assert.throws(() => new CodeMode({ tools: { t: 5 } }), (e) => e instanceof TypeError && /expected \{ description/.test(e.message));
  assert.throws(() => new CodeMode({ tools: { t: { description: "x", input: { type: 5 }, execute() {} } } }), TypeError);
  assert.throws(() => new CodeMode({ limits: { timeoutMs: 0 } }), (e) => e instanceof RangeError && /timeout/i.test(e.message));
  assert.throws(() => new CodeMode({ limits: { maxToolCalls: -1 } }), RangeError);
  assert.throws(() => new CodeMode({ limits: { timeoutMs: 1.5 } }), /safe integer/);
});

test("extensionBefore denies a call; Extension.async gives JS programs a promise", async () => {
  const { Extension } = codemode;
  const cm = new CodeMode({
    language: "javascript",
    extensions: [
      Extension.make({
        name: "web",
        globals: {
          fetch: Extension.async((url) => Promise.resolve(`body of ${url}`)),
          secret: () => "hidden",
        },
      }),
    ],
    hooks: { extensionBefore: (name) => (name === "secret" ? "secret() is not for programs; use fetch." : undefined) },
  });
  const r = await cm.execute(`
    const p = fetch("https://example.test/");
    let denied;
    try { secret(); } catch (e) { denied = e.message; }
    return [typeof p.then, await p, denied];`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.value, ["function", "body of https://example.test/", "secret() is not for programs; use fetch."]);
});
