"""Per-call overhead of a no-op Python tool through the codemode package, against
pydantic-monty's external function call (issue 18).

    python bench/python/tool_call.py            # codemode only (the package must be installed)
    python bench/python/tool_call.py --monty    # also pydantic-monty (pip install pydantic-monty)

Each case runs one program making N calls of a no-op and one making none, best of 5; the
overhead per call is (t(N) - t(0)) / N, in wall-clock microseconds (pydantic-monty runs its
interpreter in a worker process, so the caller's CPU time would not count it).
"""

import asyncio
import sys
import time

N = 2000
RUNS = 5


def best(f):
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def per_call(run):
    return (best(lambda: run(N)) - best(lambda: run(0))) / N * 1e6


def codemode_cases():
    from codemode import CodeMode, Limits, Tool

    def noop(_input):
        return None

    async def anoop(_input):
        return None

    schema = {"type": "object"}
    limits = Limits(max_tool_calls=N, timeout_ms=120_000)
    lua = CodeMode(tools={"t.noop": Tool("No-op.", schema, noop)}, limits=limits)
    js = CodeMode(tools={"t.noop": Tool("No-op.", schema, noop)}, language="js", limits=limits)
    lua_async = CodeMode(tools={"t.noop": Tool("No-op.", schema, anoop)}, limits=limits)

    def run_lua(n):
        r = lua.execute_sync(f"for i = 1, {n} do tools.t.noop({{}}) end return {n}")
        assert r.ok, r.to_json()

    def run_js(n):
        r = js.execute_sync(f"for (let i = 0; i < {n}; i++) await tools.t.noop({{}}); return {n};")
        assert r.ok, r.to_json()

    def run_lua_async(n):
        async def go():
            return await lua_async.execute(f"for i = 1, {n} do tools.t.noop({{}}) end return {n}")

        r = asyncio.run(go())
        assert r.ok, r.to_json()

    yield "codemode Lua, sync def tool (execute_sync)", run_lua
    yield "codemode JS, sync def tool (execute_sync)", run_js
    yield "codemode Lua, async def tool (await execute)", run_lua_async


def monty_cases():
    import pydantic_monty

    pool = pydantic_monty.Monty(min_processes=1, max_processes=1)
    pool.__enter__()
    session = pool.checkout(limits={"max_suspensions": 10 * N})
    session.__enter__()

    def noop():
        return None

    def run(n):
        session.feed_run(f"for i in range({n}):\n    noop()\n{n}", external_lookup={"noop": noop})

    yield "pydantic-monty, sync external function (feed_run)", run


def main():
    cases = list(codemode_cases())
    if "--monty" in sys.argv:
        cases += list(monty_cases())
    print(f"| case | overhead per call (us) |\n|---|---:|")
    for name, run in cases:
        run(10)  # warm up
        print(f"| {name} | {per_call(run):.1f} |")


if __name__ == "__main__":
    main()
