// The durable tests' runtime, in a module of its own so a child process can import it.
import { codemode, ANY } from "./helpers.mjs";

const { CodeMode } = codemode;

/** A Lua runtime with orders.lookup and payments.refund, which pushes to `refunds`. */
export function payments(refunds, options = {}) {
  return new CodeMode({
    language: "lua",
    tools: {
      orders: { lookup: { description: "Look up an order.", input: ANY, execute: ({ id }) => ({ id, total: 42 }) } },
      payments: {
        refund: {
          description: "Refund an order.",
          input: ANY,
          execute: (input) => {
            refunds.push(input);
            return { id: `r-${input.order}`, amount: input.amount };
          },
        },
      },
    },
    ...options,
  });
}
