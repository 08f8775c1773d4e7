// Shared fixtures: the seed README's order tool and a tool of any input.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** The package, loaded the way a user of the repo loads it. */
export const codemode = require("../index.js");

export const ANY = { type: "object" };

export const ORDER_INPUT = {
  type: "object",
  properties: { id: { type: "string" } },
  required: ["id"],
};
export const ORDER_OUTPUT = {
  type: "object",
  properties: { id: { type: "string" }, status: { type: "string" } },
  required: ["id", "status"],
};

/** The quick start's `lookupOrder` (JSON Schemas in place of Effect schemas). */
export const lookupOrder = {
  description: "Look up an order by ID",
  input: ORDER_INPUT,
  output: ORDER_OUTPUT,
  execute: async ({ id }) => ({ id, status: "open" }),
};

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
