// Per-call overhead of a no-op JS tool through the codemode Node package, against
// @pydantic/monty's external function call (issue 18).
//
//   (cd bindings/node && npm install && npm run build)
//   node bench/node/tool_call.mjs              # codemode only
//   npm install --prefix target/node-bench @pydantic/monty@0.0.18
//   node bench/node/tool_call.mjs --monty      # also @pydantic/monty, and the ratios
//
// Each case runs one program making N calls of a no-op and one making none, best of RUNS; the
// overhead per call is (t(N) - t(0)) / N, in wall-clock microseconds (codemode's guest runs on
// its own threads, so the JS thread's CPU time would not count it).
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";

const N = 10_000;
const RUNS = 5;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const require = createRequire(import.meta.url);

async function best(f) {
  let min = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await f();
    min = Math.min(min, Number(process.hrtime.bigint() - t) / 1e3);
  }
  return min;
}

async function perCall(run) {
  return ((await best(() => run(N))) - (await best(() => run(0)))) / N;
}

function* codemodeCases() {
  const { CodeMode } = require(join(ROOT, "bindings/node"));
  const limits = { maxToolCalls: N, timeoutMs: 120_000 };
  const tool = (execute) => ({ t: { noop: { description: "No-op.", input: { type: "object" }, execute } } });
  const lua = new CodeMode({ language: "lua", tools: tool(() => null), limits });
  const js = new CodeMode({ language: "javascript", tools: tool(() => null), limits });
  const luaAsync = new CodeMode({ language: "lua", tools: tool(async () => null), limits });
  const check = (r) => {
    if (!r.ok) throw new Error(JSON.stringify(r));
  };
  yield ["codemode Lua, sync tool", async (n) => check(await lua.execute(`for i = 1, ${n} do tools.t.noop({}) end return ${n}`))];
  yield ["codemode JS, sync tool", async (n) => check(await js.execute(`for (let i = 0; i < ${n}; i++) await tools.t.noop({}); return ${n};`))];
  yield ["codemode Lua, async tool", async (n) => check(await luaAsync.execute(`for i = 1, ${n} do tools.t.noop({}) end return ${n}`))];
}

async function* montyCases() {
  const dir = process.env.MONTY_DIR ?? join(ROOT, "target/node-bench/node_modules/@pydantic/monty");
  const { Monty, runMontyAsync } = await import(pathToFileURL(join(dir, "wrapper.js")).href);
  const program = (n) => `for i in range(${n}):\n    noop()\n${n}`;
  yield ["@pydantic/monty, sync external function (run)", async (n) => {
    const v = new Monty(program(n)).run({ externalFunctions: { noop: () => null } });
    if (v !== n) throw new Error(`monty returned ${v}`);
  }];
  yield ["@pydantic/monty, async external function (runMontyAsync)", async (n) => {
    const v = await runMontyAsync(new Monty(program(n)), { externalFunctions: { noop: async () => null } });
    if (v !== n) throw new Error(`monty returned ${v}`);
  }];
}

const rows = [];
for (const [name, run] of codemodeCases()) rows.push([name, await perCall(run)]);
if (process.argv.includes("--monty")) {
  for await (const [name, run] of montyCases()) rows.push([name, await perCall(run)]);
}
console.log(`N = ${N} calls, best of ${RUNS}, node ${process.version}`);
console.log("| case | overhead per call (µs) |\n|---|---:|");
for (const [name, us] of rows) console.log(`| ${name} | ${us.toFixed(2)} |`);
const sync = rows.find(([n]) => n.startsWith("codemode Lua, sync"));
const montySync = rows.find(([n]) => n.includes("monty, sync"));
const montyAsync = rows.find(([n]) => n.includes("monty, async"));
const asyncLua = rows.find(([n]) => n.startsWith("codemode Lua, async"));
if (montySync) console.log(`ratio codemode Lua sync / monty sync: ${(sync[1] / montySync[1]).toFixed(2)}`);
if (montyAsync) console.log(`ratio codemode Lua async / monty async: ${(asyncLua[1] / montyAsync[1]).toFixed(2)}`);
