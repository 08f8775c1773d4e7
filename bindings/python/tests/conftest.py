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
