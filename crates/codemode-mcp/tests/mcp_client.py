"""Drives an MCP server with the official Python MCP SDK client (not our code) and prints what
happened as one JSON document on stdout.

    mcp_client.py stdio COMMAND [ARGS...] < steps.json
    mcp_client.py http URL < steps.json

steps.json is a list of steps:
    {"op": "list"}                                   -> {"tools": [...]} (wire shape)
    {"op": "call", "name": .., "args": {..}, "progress": true}
                                                     -> {"result": <CallToolResult wire shape>, "progress": [..], "seconds": s}
        with "token_from": i, args.token is the resumeToken in step i's structuredContent
    {"op": "cancel", "name": .., "args": {..}, "after": s}  cancels the call after s seconds
                                                     -> {"cancelled": true, "seconds": s}
    {"op": "parallel", "calls": [{"name":..,"args":..}, ..]} runs the calls at once
                                                     -> {"results": [{"result":.., "seconds": s}, ..]}
    {"op": "sleep", "seconds": s}                    -> {}
The output is {"steps": [...], "notifications": [method names the client received]}.
"""
import json
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def call(session, step):
    progress = []

    async def on_progress(*args):
        progress.append([a for a in args])

    t0 = time.monotonic()
    r = await session.call_tool(step["name"], step.get("args", {}),
                                progress_callback=on_progress if step.get("progress") else None)
    return {"result": dump(r), "progress": progress, "seconds": time.monotonic() - t0}


async def run_steps(session, steps, notes):
    await session.initialize()
    out = []
    for step in steps:
        op = step["op"]
        if op == "list":
            r = await session.list_tools()
            out.append({"tools": [dump(t) for t in r.tools]})
        elif op == "call":
            if "token_from" in step:
                prior = out[step["token_from"]]["result"]["structuredContent"]
                step = dict(step, args=dict(step.get("args", {}), token=prior["resumeToken"]))
            out.append(await call(session, step))
        elif op == "cancel":
            t0 = time.monotonic()
            with anyio.move_on_after(step["after"]):
                await session.call_tool(step["name"], step.get("args", {}))
            out.append({"cancelled": True, "seconds": time.monotonic() - t0})
        elif op == "parallel":
            results = [None] * len(step["calls"])

            async def one(i, c):
                results[i] = await call(session, c)

            async with anyio.create_task_group() as tg:
                for i, c in enumerate(step["calls"]):
                    tg.start_soon(one, i, c)
            out.append({"results": results})
        elif op == "sleep":
            await anyio.sleep(step["seconds"])
            out.append({})
        else:
            raise ValueError("unknown op " + op)
    return out


async def main():
    steps = json.load(sys.stdin)
    notes = []

    async def on_message(message):
        method = getattr(message, "method", None)
        if method is None and hasattr(message, "root"):
            method = getattr(message.root, "method", None)
        notes.append(method if method else type(message).__name__)

    if sys.argv[1] == "stdio":
        params = StdioServerParameters(command=sys.argv[2], args=sys.argv[3:])
        async with stdio_client(params) as streams:
            async with ClientSession(streams[0], streams[1], message_handler=on_message) as session:
                out = await run_steps(session, steps, notes)
    else:
        async with streamable_http_client(sys.argv[2]) as streams:
            async with ClientSession(streams[0], streams[1], message_handler=on_message) as session:
                out = await run_steps(session, steps, notes)
    print(json.dumps({"steps": out, "notifications": notes}))


anyio.run(main)
