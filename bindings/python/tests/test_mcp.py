"""CodeMode.from_mcp_config: MCP servers as tool sources (the fixture server of codemode-mcp's
tests: plain python3, no packages), beside Python tools and hooks."""

import asyncio
import json
import pathlib
import sys

import pytest

from codemode import CodeMode, Hooks, Tool

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "crates" / "codemode-mcp" / "tests" / "fixtures" / "fixture_server.py"


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({
        "mcpServers": {
            "fx": {"command": sys.executable, "args": [str(FIXTURE)], "timeoutMs": 5000},
            "broken": {"command": "/nonexistent/mcp-server"},
        },
        "codemode": {"language": "js", "limits": {"maxToolCalls": 5}},
    }))
    return path


def test_servers_tools_beside_python_tools(config):
    seen = []
    with CodeMode.from_mcp_config(
        config,
        tools={"local.double": Tool("Double n.", {"type": "object"}, lambda i: {"n": i["n"] * 2})},
        hooks=Hooks(tool_before=lambda name, input: seen.append(name)),
    ) as cm:
        assert cm.language == "javascript"
        paths = [e["path"] for e in cm.catalog()]
        assert "fx.add" in paths and "local.double" in paths
        r = cm.execute_sync(
            "const s = await tools.fx.add({ a: 2, b: 3 });\n"
            "const d = await tools.local.double({ n: s.sum });\n"
            "return d.n;"
        )
        assert (r.ok, r.value) == (True, 10), r.to_json()
        assert seen == ["fx.add", "local.double"]
        # The config's limits apply.
        r = asyncio.run(cm.execute("for (let i = 0; i < 6; i++) await tools.fx.add({ a: i, b: 1 }); return 1;"))
        assert r.error.kind == "ToolCallLimitExceeded"
        # A server that did not start: named in the instructions, its calls fail catchably.
        assert "Unavailable: tools.broken" in cm.instructions(budget=1000)
        r = cm.execute_sync("try { await tools.broken.x({}); } catch (e) { return String(e.message); }")
        assert r.ok and "broken" in r.value
        with pytest.raises(RuntimeError, match="from_mcp_config"):
            cm.add_tool("late.tool", Tool("Late.", {"type": "object"}, lambda i: i))


def test_bad_config_is_a_value_error(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": 5}')
    with pytest.raises(ValueError):
        CodeMode.from_mcp_config(path)
