// examples/node runs as is and prints the seed's documented Result.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

test("examples/node/quickstart.mjs prints the quick start's Result", () => {
  const out = spawnSync(process.execPath, ["examples/node/quickstart.mjs"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  assert.equal(out.stderr, "");
  assert.equal(out.status, 0);
  assert.deepEqual(JSON.parse(out.stdout), {
    ok: true,
    value: { id: "order_42", needsAttention: true },
    toolCalls: [{ name: "orders.lookup", input: { id: "order_42" }, status: "success" }],
  });
});
