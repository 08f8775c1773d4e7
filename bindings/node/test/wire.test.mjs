// The Result's wire shape is the CLI's for the same program and tools (the CLI is the oracle;
// bindings/python/tests/test_sync.py does the same for Python).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { codemode } from "./helpers.mjs";

const { CodeMode } = codemode;
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function cli(t) {
  const exe = process.env.CODEMODE_CLI;
  if (exe) {
    // Set by ci.sh: the CLI must be there.
    assert.ok(existsSync(exe), `CODEMODE_CLI=${exe} does not exist`);
    return exe;
  }
  const built = join(ROOT, "target", "debug", "codemode");
  if (!existsSync(built)) t.skip(`the codemode CLI is not built at ${built} (cargo build -p codemode-cli)`);
  return existsSync(built) ? built : null;
}

const schema = { type: "object", properties: { a: { type: "integer" } } };

for (const [language, program] of [
  ["lua", 'print("start")\nlocal r = tools.t.echo({ a = 1, b = { "x" } })\nreturn { got = r, n = #r.b }'],
  ["js", 'console.log("start");\nconst r = await tools.t.echo({ a: 1, b: ["x"] });\nreturn { got: r, n: r.b.length };'],
  ["lua", 'local r = tools.t.echo({ a = 1 })\nerror("stop here")'],
  ["js", "return tools.nope.missing({})"],
]) {
  test(`wire shape equals the CLI's: ${language}: ${program.split("\n")[0]}`, async (t) => {
    const exe = cli(t);
    if (!exe) return;
    const dir = mkdtempSync(join(tmpdir(), "codemode-node-"));
    const manifest = join(dir, "tools.json");
    writeFileSync(manifest, JSON.stringify({ tools: { "t.echo": { description: "Echo.", input: schema, command: ["cat"] } } }));
    const src = join(dir, language === "lua" ? "p.lua" : "p.js");
    writeFileSync(src, program);
    const out = spawnSync(exe, ["run", "--lang", language, "--tools", manifest, src], { encoding: "utf8", timeout: 60_000 });
    assert.equal(out.stderr, "");
    const cm = new CodeMode({ language, tools: { "t.echo": { description: "Echo.", input: schema, execute: (i) => i } } });
    const r = await cm.execute(program);
    // Same text: same keys, same order, same values.
    assert.equal(JSON.stringify(r), out.stdout.trim());
    assert.equal(out.status, r.ok ? 0 : 1);
  });
}

