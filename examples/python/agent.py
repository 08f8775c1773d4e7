"""An agent-style loop over codemode, with tools as plain Python functions.

The host hands the model codemode's instructions as the description of one `execute` tool; each
time the model calls it with a program, the host runs the program and sends back the Result's
wire JSON. A real host puts its model client in `ask_model`; this one replays a scripted model
so the example runs as is:

    pip install ./bindings/python      # from the repository root (needs a Rust toolchain)
    python examples/python/agent.py
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List, Optional

from codemode import CodeMode, Limits, ToolError

ORDERS = {
    "o1": {"id": "o1", "customer": "ada", "total": 42, "status": "shipped"},
    "o2": {"id": "o2", "customer": "ada", "total": 7, "status": "open"},
    "o3": {"id": "o3", "customer": "bob", "total": 99, "status": "open"},
}

cm = CodeMode(
    namespaces={"orders": "Order management"},
    limits=Limits(timeout_ms=5_000, max_tool_calls=50),
)


@cm.tool("orders.list")
def list_orders(customer: Optional[str] = None) -> List[str]:
    """List order ids, optionally of one customer."""
    return [o["id"] for o in ORDERS.values() if customer in (None, o["customer"])]


@cm.tool("orders.lookup")
async def lookup(id: str) -> Dict[str, Any]:
    """Look up an order by id."""
    await asyncio.sleep(0.01)  # a database or an HTTP API
    if id not in ORDERS:
        raise ToolError(f"No order {id!r}; list ids with tools.orders.list().")
    return ORDERS[id]


# What the model writes, turn by turn (a real model reads the instructions and the results).
SCRIPT = [
    {
        "execute": """
local total, open = 0, {}
for _, id in ipairs(tools.orders.list({ customer = "ada" })) do
  local o = tools.orders.lookup({ id = id })
  total = total + o.total
  if o.status == "open" then open[#open + 1] = id end
end
print("looked at ada's orders")
return { total = total, open = open }
"""
    },
    {"answer": "Ada has spent 49 in all; order o2 is still open."},
]


def ask_model(messages: List[Dict[str, Any]], turn: int) -> Dict[str, Any]:
    """Stand-in for a model call: `messages` holds the system prompt and the results so far."""
    return SCRIPT[turn]


async def main() -> str:
    messages: List[Dict[str, Any]] = [
        {"role": "system", "content": cm.instructions(budget=1_000)},
        {"role": "user", "content": "How much has ada spent, and which of her orders are open?"},
    ]
    for turn in range(len(SCRIPT)):
        reply = ask_model(messages, turn)
        if "answer" in reply:
            return reply["answer"]
        result = await cm.execute(reply["execute"])
        print("execute ->", result.to_json())
        messages.append({"role": "tool", "content": json.dumps(result.to_dict())})
    raise RuntimeError("the model did not answer")


if __name__ == "__main__":
    print(asyncio.run(main()))
