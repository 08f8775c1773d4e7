"""Shared fixtures: the order tools of the README, as sync handlers and as coroutines."""

import asyncio

import pytest

from codemode import Tool, ToolError

ORDER_INPUT = {
    "type": "object",
    "properties": {"id": {"type": "string"}},
    "required": ["id"],
}
ORDERS = {"o1": {"id": "o1", "total": 42}, "o2": {"id": "o2", "total": 7}}


def lookup(input):
    try:
        return ORDERS[input["id"]]
    except KeyError:
        raise ToolError("No order with that id; list ids with tools.orders.list().") from None


async def lookup_async(input):
    await asyncio.sleep(0.001)
    return lookup(input)


@pytest.fixture
def order_tools():
    return {"orders.lookup": Tool("Look up an order by id.", ORDER_INPUT, lookup)}


@pytest.fixture
def async_order_tools():
    return {"orders": {"lookup": Tool("Look up an order by id.", ORDER_INPUT, lookup_async)}}



def cancel_in_call(make, start):
    """Build a runtime with ``make(hang, tool_after)`` (``hang`` is a tool handler that waits
    30 s; ``tool_after`` a hook recording ``(name, status)``), run ``await start(cm)`` as a
    task, cancel it once ``hang`` runs, check it raises ``CancelledError``, and return what the
    ``after`` hook recorded (waiting up to 2 s for it)."""
    after = []

    async def main():
        entered = asyncio.Event()

        async def hang(input):
            entered.set()
            await asyncio.sleep(30)

        async def tool_after(name, input, outcome):
            after.append((name, outcome["status"]))

        cm = make(hang, tool_after)
        task = asyncio.ensure_future(start(cm))
        await asyncio.wait_for(entered.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):
            if after:
                break
            await asyncio.sleep(0.01)

    asyncio.run(main())
    return after
