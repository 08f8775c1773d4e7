"""ToolError vs other exceptions, non-JSON outputs, every limit, hooks, extensions, cancellation."""

import asyncio
import logging
import time

import pytest

from codemode import CodeMode, Extension, Hooks, Limits, Tool, ToolError
from conftest import cancel_in_call

ANY = {"type": "object"}


def test_tool_error_message_reaches_the_program():
    def fail(input):
        raise ToolError("Order o9 is archived; call tools.orders.restore first.")

    cm = CodeMode(tools={"orders.get": Tool("Get.", ANY, fail)})
    r = cm.execute_sync("local ok, e = pcall(tools.orders.get, {})\nreturn tostring(e)")
    assert r.ok and "Order o9 is archived; call tools.orders.restore first." in r.value
    assert r.tool_calls[0].status == "failure"


def test_other_exceptions_are_hidden_from_the_program_and_logged(caplog):
    def boom(input):
        raise KeyError("database password is hunter2")

    cm = CodeMode(tools={"orders.get": Tool("Get.", ANY, boom)})
    with caplog.at_level(logging.ERROR, logger="codemode"):
        r = cm.execute_sync("return tools.orders.get({})")
    assert r.error.kind == "ToolFailure"
    assert r.error.message == "Tool 'orders.get' failed."
    assert "hunter2" not in r.to_json()
    [record] = [rec for rec in caplog.records if rec.name == "codemode"]
    assert "tool 'orders.get'" in record.getMessage()
    assert record.exc_info[0] is KeyError and "hunter2" in caplog.text


def test_async_handler_exceptions_too(caplog):
    async def boom(input):
        await asyncio.sleep(0)
        raise RuntimeError("internal detail")

    async def polite(input):
        raise ToolError("Try again with a smaller page.")

    cm = CodeMode(tools={"a.boom": Tool("B.", ANY, boom), "a.polite": Tool("P.", ANY, polite)})
    r1 = asyncio.run(cm.execute("return tools.a.boom({})"))
    r2 = asyncio.run(cm.execute("return tools.a.polite({})"))
    assert r1.error.message == "Tool 'a.boom' failed."
    assert "internal detail" in caplog.text
    assert (r2.error.kind, r2.error.message) == ("ToolFailure", "Try again with a smaller page.")


@pytest.mark.parametrize(
    "value,where",
    [
        ({1, 2}, "$: a value of type set is not JSON data"),
        ({"a": [1, object()]}, "$.a[1]: a value of type object is not JSON data"),
        ({1: "x"}, "$: the key 1 (of type int) is not a string"),
        (float("nan"), "$: NaN is not a JSON number"),
        (2**70, "does not fit in 64 bits"),
    ],
)
def test_non_json_output_is_an_invalid_tool_output(value, where):
    cm = CodeMode(tools={"t.bad": Tool("Bad.", ANY, lambda i: value)})
    r = cm.execute_sync("return tools.t.bad({})")
    assert r.error.kind == "InvalidToolOutput"
    assert where in r.error.message


def test_self_containing_output_is_bounded():
    loop = []
    loop.append(loop)
    cm = CodeMode(tools={"t.loop": Tool("Loop.", ANY, lambda i: loop)})
    r = cm.execute_sync("return tools.t.loop({})")
    assert r.error.kind == "InvalidToolOutput"
    assert "nested deeper than" in r.error.message


def test_output_schema_is_checked():
    cm = CodeMode(
        tools={"t.n": Tool("N.", ANY, lambda i: {"n": "x"}, output_schema={
            "type": "object", "properties": {"n": {"type": "integer"}}})}
    )
    r = cm.execute_sync("return tools.t.n({})")
    assert r.error.kind == "InvalidToolOutput"


def test_input_schema_is_checked_before_the_handler(order_tools):
    r = CodeMode(tools=order_tools).execute_sync("return tools.orders.lookup({ id = 5 })")
    assert r.error.kind == "InvalidToolInput"
    assert r.tool_calls[0].status == "failure"


def test_timeout_stops_a_busy_program():
    cm = CodeMode(limits=Limits(timeout_ms=100))
    r = cm.execute_sync("while true do end")
    assert r.error.kind == "TimeoutExceeded"
    assert "100ms" in r.error.message


def test_timeout_interrupts_a_hanging_sync_handler():
    cm = CodeMode(tools={"t.slow": Tool("Slow.", ANY, lambda i: time.sleep(1))},
                  limits=Limits(timeout_ms=100))
    t = time.monotonic()
    r = cm.execute_sync("return tools.t.slow({})")
    assert time.monotonic() - t < 0.9
    assert r.error.kind == "TimeoutExceeded"
    assert r.tool_calls[0].status == "interrupted"


def test_timeout_cancels_a_hanging_coroutine():
    cancelled = []

    async def hang(input):
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    cm = CodeMode(tools={"t.hang": Tool("Hang.", ANY, hang)}, limits=Limits(timeout_ms=100))

    async def main():
        r = await cm.execute("return tools.t.hang({})")
        for _ in range(100):
            if cancelled:
                break
            await asyncio.sleep(0.01)
        return r

    r = asyncio.run(main())
    assert r.error.kind == "TimeoutExceeded"
    assert r.tool_calls[0].status == "interrupted"
    assert cancelled == [True]


def test_max_tool_calls(order_tools):
    cm = CodeMode(tools=order_tools, limits=Limits(max_tool_calls=2))
    r = cm.execute_sync('for i = 1, 3 do tools.orders.lookup({ id = "o1" }) end return 1')
    assert r.error.kind == "ToolCallLimitExceeded"
    assert len(r.tool_calls) == 2


def test_max_output_bytes():
    cm = CodeMode(limits=Limits(max_output_bytes=1024))
    r = cm.execute_sync('return string.rep("x", 5000)')
    assert r.ok and r.truncated is True
    assert r.value.startswith('"' + "x" * 100) and "result truncated" in r.value
    assert r.warnings[-1].kind == "Truncated"


def test_max_memory_bytes():
    cm = CodeMode(limits=Limits(max_memory_bytes=1 << 20))
    r = cm.execute_sync('local t = {} for i = 1, 1e6 do t[i] = string.rep("y", 100) .. i end return #t')
    assert r.ok is False
    assert "memory" in r.error.message.lower()


def test_limits_out_of_range_are_value_errors():
    with pytest.raises(ValueError, match="timeout_ms"):
        CodeMode(limits=Limits(timeout_ms=0))
    with pytest.raises(ValueError, match="max_tool_calls"):
        CodeMode(limits=Limits(max_tool_calls=-1))


def _echo(input):
    return input


def test_hook_denies_a_call_and_sees_every_outcome():
    after = []

    def before(name, input):
        if name.endswith(".delete"):
            return f"{name} is not allowed here; archive the item instead."
        return None

    cm = CodeMode(
        tools={"items.get": Tool("Get.", ANY, _echo), "items.delete": Tool("Delete.", ANY, _echo)},
        hooks=Hooks(tool_before=before, tool_after=lambda n, i, o: after.append((n, i, o))),
    )
    r = cm.execute_sync(
        "local ok, err = pcall(tools.items.delete, { id = 1 })\n"
        "return { tools.items.get({ id = 2 }).id, tostring(err) }"
    )
    assert r.ok, r.to_json()
    assert r.value[0] == 2
    assert "items.delete is not allowed here; archive the item instead." in r.value[1]
    assert [c.status for c in r.tool_calls] == ["denied", "success"]
    assert after == [
        ("items.delete", {"id": 1}, {"status": "denied",
                                     "message": "items.delete is not allowed here; archive the item instead."}),
        ("items.get", {"id": 2}, {"status": "success", "value": {"id": 2}}),
    ]


def test_async_hooks_and_raising_hooks(caplog):
    async def before(name, input):
        await asyncio.sleep(0)
        if input.get("id") == 1:
            raise ToolError("id 1 is reserved; use another id.")
        if input.get("id") == 2:
            raise ValueError("policy bug")

    cm = CodeMode(tools={"items.get": Tool("Get.", ANY, _echo)}, hooks=Hooks(tool_before=before))
    rs = [asyncio.run(cm.execute(f"return tools.items.get({{ id = {i} }})")) for i in (1, 2, 3)]
    assert rs[0].error.message == "id 1 is reserved; use another id."
    assert rs[1].error.message == "The host refused this call."
    assert "policy bug" in caplog.text
    assert rs[2].value == {"id": 3}


def test_extensions():
    seen = []

    def before(name, args):
        seen.append((name, args))

    async def fetch(url):
        return {"url": url, "status": 200}

    cm = CodeMode(
        language="js",
        extensions=[Extension("fs", {"read": lambda p: f"contents of {p}"}), Extension("fetch", fetch)],
        hooks=Hooks(extension_before=before),
    )
    r = asyncio.run(cm.execute('const s = fs.read("a.txt"); const f = await fetch("u"); return [s, f.status];'))
    assert r.ok, r.to_json()
    assert r.value == ["contents of a.txt", 200]
    assert seen == [("fs.read", ["a.txt"]), ("fetch", ["u"])]


def test_cancelling_the_task_interrupts_the_execution():
    after = cancel_in_call(
        lambda hang, tool_after: CodeMode(
            tools={"t.hang": Tool("Hang.", ANY, hang)}, hooks=Hooks(tool_after=tool_after)
        ),
        lambda cm: cm.execute("return tools.t.hang({})"),
    )
    assert after == [("t.hang", "interrupted")]


def test_extension_errors(caplog):
    def read(path):
        if path == "secret":
            raise PermissionError("/etc/shadow is not readable")
        raise ToolError(f"No file {path}; list files with fs.list().")

    cm = CodeMode(extensions=[Extension("fs", {"read": read})])
    r = cm.execute_sync('return fs.read("a.txt")')
    assert (r.error.kind, r.error.message) == ("ExecutionFailure", "No file a.txt; list files with fs.list().")
    r = cm.execute_sync('return fs.read("secret")')
    assert r.error.kind == "ExecutionFailure"
    assert "shadow" not in r.to_json() and "shadow" in caplog.text
