"""await cm.execute on the caller's loop: coroutine handlers, concurrency, the GIL released."""

import asyncio
import threading

import pytest

from codemode import CodeMode, Tool

BUSY_LUA = "local n = 0 for i = 1, 3000000 do n = n + i % 7 end return n"


def test_async_handler_runs_on_the_callers_loop(async_order_tools):
    loops = []

    async def where(input):
        loops.append(asyncio.get_running_loop())
        return {"thread": threading.get_ident()}

    cm = CodeMode(tools={**async_order_tools, "where": Tool("Where.", {"type": "object"}, where)})

    async def main():
        r = await cm.execute('return { tools.orders.lookup({ id = "o1" }).total, tools.where().thread }')
        return asyncio.get_running_loop(), r

    loop, r = asyncio.run(main())
    assert r.ok, r.to_json()
    assert r.value == [42, threading.get_ident()]
    assert loops == [loop]


def test_hundred_concurrent_executions_on_one_loop():
    calls = []

    async def double(input):
        calls.append(input["n"])
        await asyncio.sleep(0.005)
        return {"n": input["n"] * 2}

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    cm = CodeMode(tools={"math.double": Tool("Double n.", schema, double)}, language="js")

    async def main():
        programs = [
            f"const a = await tools.math.double({{ n: {i} }});\n"
            f"const [b, c] = await Promise.all([tools.math.double({{ n: a.n }}), tools.math.double({{ n: 1 }})]);\n"
            "return b.n + c.n;"
            for i in range(100)
        ]
        return await asyncio.gather(*(cm.execute(p) for p in programs))

    results = asyncio.run(main())
    assert [r.value for r in results] == [4 * i + 2 for i in range(100)]
    assert all(r.ok and len(r.tool_calls) == 3 for r in results)
    assert len(calls) == 300


def test_the_loop_runs_while_guest_code_runs():
    cm = CodeMode()

    async def main():
        ticks = 0
        task = asyncio.ensure_future(cm.execute(BUSY_LUA))
        while not task.done():
            ticks += 1
            await asyncio.sleep(0.001)
        return ticks, task.result()

    ticks, r = asyncio.run(main())
    assert r.ok and isinstance(r.value, int)
    # The program takes well over 10 ms; a loop blocked by it would tick once.
    assert ticks > 3


def test_execute_sync_releases_the_gil():
    cm = CodeMode()
    done = threading.Event()
    counted = [0]

    def count():
        while not done.is_set():
            counted[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        r = cm.execute_sync(BUSY_LUA)
    finally:
        done.set()
        t.join()
    assert r.ok
    assert counted[0] > 1000


def test_execute_sync_with_async_handlers_uses_its_own_loop(async_order_tools):
    cm = CodeMode(tools=async_order_tools)
    r = cm.execute_sync('return tools.orders.lookup({ id = "o2" }).total')
    assert (r.ok, r.value) == (True, 7)

    async def inside():
        with pytest.raises(RuntimeError, match="await cm.execute"):
            cm.execute_sync("return 1")

    asyncio.run(inside())


def test_sync_handlers_under_await_execute(order_tools):
    cm = CodeMode(tools=order_tools)

    async def main():
        return await asyncio.gather(
            *(cm.execute(f'return tools.orders.lookup({{ id = "o{1 + i % 2}" }}).total') for i in range(20))
        )

    assert [r.value for r in asyncio.run(main())] == [42, 7] * 10


EXIT_SCRIPT = """
import asyncio, time
from codemode import CodeMode, Limits, Tool
async def f(i):
    await asyncio.sleep(0)
    return i
cm = CodeMode(tools={"t.f": Tool("f", {"type": "object"}, f)}, language="js")
assert asyncio.run(cm.execute("return await tools.t.f({ x: 1 });")).ok
slow = CodeMode(tools={"t.s": Tool("s", {"type": "object"}, lambda i: time.sleep(0.3))},
                limits=Limits(timeout_ms=50))
assert slow.execute_sync("return tools.t.s({})").error.kind == "TimeoutExceeded"
print("done")
"""


def test_interpreter_exit_with_codemode_threads_in_flight():
    import subprocess
    import sys

    for _ in range(5):
        p = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], capture_output=True, text=True, timeout=60)
        assert (p.returncode, p.stdout, p.stderr) == (0, "done\n", "")
