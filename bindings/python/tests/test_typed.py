"""The @cm.tool decorator: schemas from type hints (pydantic models, TypedDicts, plain
annotations), with and without pydantic; catalog, instructions and search."""

import asyncio
from typing import List, Optional, TypedDict

import pydantic
import pytest
import typing_extensions

import codemode._schema
from codemode import CodeMode, Limits, Tool


class Lookup(pydantic.BaseModel):
    id: str
    include_items: bool = False


class Order(pydantic.BaseModel):
    id: str
    total: int


class Range(TypedDict):
    low: int
    high: int


class Range2(typing_extensions.TypedDict):
    low: int
    high: int


def test_pydantic_model_input_and_output():
    cm = CodeMode(namespaces={"orders": "Order management"})
    got = []

    @cm.tool("orders.lookup")
    def lookup(q: Lookup) -> Order:
        """Look up an order by id."""
        got.append(q)
        return Order(id=q.id, total=42)

    r = cm.execute_sync('return tools.orders.lookup({ id = "o1" })')
    assert r.ok, r.to_json()
    assert r.value == {"id": "o1", "total": 42}
    assert got == [Lookup(id="o1", include_items=False)]
    [entry] = cm.catalog()
    assert entry["description"] == "Look up an order by id."
    assert "id: string" in entry["signature"] and "include_items?: boolean" in entry["signature"]
    assert "total: integer" in entry["signature"]
    # The schema is pydantic's: a wrong type is rejected before the handler runs.
    bad = cm.execute_sync("return tools.orders.lookup({ id = 5 })")
    assert bad.error.kind == "InvalidToolInput" and len(got) == 1


@pytest.mark.parametrize("range_type", [Range, Range2])
def test_typed_dict_and_async(range_type):
    cm = CodeMode(language="js")

    @cm.tool("math.span", description="Width of a range.")
    async def span(r: range_type) -> int:
        await asyncio.sleep(0)
        return r["high"] - r["low"]

    r = asyncio.run(cm.execute("return await tools.math.span({ low: 3, high: 10 });"))
    assert (r.ok, r.value) == (True, 7)
    sig = cm.catalog()[0]["signature"]
    assert sig.startswith("tools.math.span(input: {") and "low: number;" in sig and "r:" not in sig
    assert cm.execute_sync("return await tools.math.span({ low: 3 });").error.kind == "InvalidToolInput"


def test_parameters_become_properties():
    cm = CodeMode()

    @cm.tool("text.times")
    def repeat(word: str, times: int = 2, sep: Optional[str] = None) -> List[str]:
        return [word] * times

    assert cm.execute_sync('return tools.text.times({ word = "a" })').value == ["a", "a"]
    assert cm.execute_sync('return tools.text.times({ word = "a", times = 3 })').value == ["a"] * 3
    r = cm.execute_sync("return tools.text.times({ times = 3 })")
    assert r.error.kind == "InvalidToolInput" and "word" in r.error.message
    # The decorator returns the function unchanged.
    assert repeat("b", 1) == ["b"]


def test_plain_functions_in_tools_and_without_pydantic(monkeypatch):
    monkeypatch.setattr(codemode._schema, "pydantic", None)

    def add(a: int, b: float = 1.0, tags: Optional[List[str]] = None) -> dict:
        """Add a and b."""
        return {"sum": a + b, "tags": tags or []}

    cm = CodeMode(tools={"math": {"add": add}})
    r = cm.execute_sync('return tools.math.add({ a = 2, tags = { "x" } })')
    assert r.value == {"sum": 3.0, "tags": ["x"]}
    sig = cm.catalog()[0]["signature"]
    assert "a: integer" in sig and "b?: number" in sig and "tags?: string[]" in sig.replace(" | nil", "")
    assert cm.execute_sync('return tools.math.add({ a = "x" })').error.kind == "InvalidToolInput"

    class Custom:
        pass

    def f(x: Custom):
        return 1

    with pytest.raises(TypeError, match="install pydantic"):
        cm.tool("t.f")(f)


def test_catalog_instructions_search():
    cm = CodeMode(
        tools={
            "orders.lookup": Tool("Look up an order by id.", {"type": "object"}, lambda i: i),
            "orders.refund": Tool("Refund an order.", {"type": "object"}, lambda i: i),
            "slack.post": Tool("Post a message to a channel.", {"type": "object"}, lambda i: i),
        },
        namespaces={"orders": "Order management"},
        limits=Limits(max_tool_calls=9),
    )
    assert [e["path"] for e in cm.catalog()] == ["orders.lookup", "orders.refund", "slack.post"]
    assert cm.catalog(language="js")[0]["signature"].startswith("tools.orders.lookup(")
    text = cm.instructions(budget=500)
    assert "at most 9 tool calls" in text and "tools.slack.post" in text
    page = cm.search("refund")
    assert page["items"][0]["path"] == "orders.refund"
    page = cm.search(namespace="orders", limit=1)
    assert len(page["items"]) == 1 and page["next"] == {"offset": 1}
    with pytest.raises(ValueError, match="limit"):
        cm.search(limit=0)
    # The program's search gives the same page.
    r = cm.execute_sync('return search({ query = "refund" })')
    assert r.value == {k: v for k, v in cm.search("refund").items() if v is not None}
