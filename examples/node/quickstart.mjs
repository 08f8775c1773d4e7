// The seed README's quick start on the Node package: one tool in the `orders` namespace, a Lua
// program that calls it, the Result printed as JSON.
//
//   cd bindings/node && npm install && npm run build && cd ../..
//   node examples/node/quickstart.mjs
//
// Type-checked by `npm run typecheck` in bindings/node (tsc --noEmit, checkJs).
import { CodeMode, Tool } from "../../bindings/node/index.js";

const lookupOrder = Tool({
  description: "Look up an order by ID",
  input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  output: {
    type: "object",
    properties: { id: { type: "string" }, status: { type: "string" } },
    required: ["id", "status"],
  },
  execute: async (/** @type {{ id: string }} */ { id }) => ({ id, status: "open" }),
});

const runtime = new CodeMode({
  language: "lua",
  tools: { orders: { lookup: lookupOrder } },
});

const result = await runtime.execute(`
  local order = tools.orders.lookup({ id = "order_42" })
  return { id = order.id, needsAttention = order.status ~= "complete" }
`);

// {"ok":true,"value":{"id":"order_42","needsAttention":true},"toolCalls":[...]}
console.log(JSON.stringify(result));
if (!result.ok) process.exitCode = 1;
