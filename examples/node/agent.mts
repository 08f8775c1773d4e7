// An agent host's side of Code Mode, typed: the instructions a model gets, an `execute` tool
// that runs the program it writes (with limits, a hook and an abort signal), and the Result
// handed back. Checked by `npm run typecheck` in bindings/node (tsc --noEmit); the model is a
// fixed program here.
import { CodeMode, Namespace, ToolError, type Result, type CallOutcome } from "../../bindings/node/index.js";

interface Order {
  id: string;
  status: "open" | "shipped" | "complete";
  total: number;
}

const orders = new Map<string, Order>([
  ["order_42", { id: "order_42", status: "open", total: 42 }],
  ["order_7", { id: "order_7", status: "complete", total: 7 }],
]);

const runtime = new CodeMode({
  language: "javascript",
  tools: {
    orders: Namespace("Purchases, fulfillment, and shipment tracking", {
      lookup: {
        description: "Look up an order by ID",
        input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        execute: async ({ id }: { id: string }): Promise<Order> => {
          const order = orders.get(id);
          if (!order) throw new ToolError(`No order ${id}; list them with tools.orders.list().`);
          return order;
        },
      },
      list: {
        description: "List every order id",
        input: { type: "object" },
        execute: () => [...orders.keys()],
      },
    }),
  },
  limits: { timeoutMs: 10_000, maxToolCalls: 32, maxOutputBytes: 65_536 },
  hooks: {
    toolAfter: (name: string, _input: unknown, outcome: CallOutcome) => {
      console.error(`${name}: ${outcome.status}`);
    },
  },
});

const instructions: string = runtime.instructions({ budget: 2_000 });
const program = `
  const ids = await tools.orders.list({});
  const all = await Promise.all(ids.map((id) => tools.orders.lookup({ id })));
  return all.filter((o) => o.status !== "complete").map((o) => o.id);
`;

const controller = new AbortController();
const result: Result = await runtime.execute(program, { signal: controller.signal });
if (result.ok) {
  console.log(instructions.length > 0, result.value);
} else if (result.status === "paused") {
  // Only with `pauseOn` or a `pauseBefore` hook: resume later with `runtime.resume(result, replies)`.
  console.log(`paused at ${result.pending.map((p) => p.name).join(", ")}`);
} else {
  console.log(`${result.error.kind}: ${result.error.message}`);
}
