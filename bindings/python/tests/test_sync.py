"""CodeMode with sync handlers and execute_sync: values, the typed Result and its wire shape."""

import json
import os
import pathlib
import subprocess

import pytest

from codemode import CodeMode, Diagnostic, Location, Result, Tool, ToolCall

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_lua_program_calls_a_sync_tool(order_tools):
    cm = CodeMode(tools=order_tools)
    r = cm.execute_sync('return tools.orders.lookup({ id = "o1" }).total')
    assert isinstance(r, Result)
    assert r.ok is True and r.value == 42 and r.error is None
    assert r.tool_calls == (ToolCall("orders.lookup", {"id": "o1"}, "success"),)
    assert r.to_json() == (
        '{"ok":true,"value":42,"toolCalls":'
        '[{"name":"orders.lookup","input":{"id":"o1"},"status":"success"}]}'
    )
    assert r.to_dict() == json.loads(r.to_json())


@pytest.mark.parametrize("language", ["js", "javascript", "JavaScript"])
def test_javascript_by_every_name(order_tools, language):
    cm = CodeMode(tools=order_tools, language=language)
    assert cm.language == "javascript"
    r = cm.execute_sync('const o = await tools.orders.lookup({ id: "o2" }); return o.total * 2')
    assert (r.ok, r.value) == (True, 14)


def test_values_cross_both_ways():
    seen = []

    def echo(input):
        seen.append(input)
        return {"list": [1, 2.5, "x", None, True], "nested": {"a": {"b": []}}, "tuple": (1, 2)}

    cm = CodeMode(tools={"t.echo": Tool("Echo.", {"type": "object"}, echo)})
    r = cm.execute_sync('return tools.t.echo({ n = 3, s = "é", f = 1.5, l = { 1, 2 } })')
    assert seen == [{"n": 3, "s": "é", "f": 1.5, "l": [1, 2]}]
    assert r.value == {
        "list": [1, 2.5, "x", None, True],
        "nested": {"a": {"b": []}},
        "tuple": [1, 2],
    }


def test_failure_has_kind_message_location_and_logs(order_tools):
    cm = CodeMode(tools=order_tools)
    r = cm.execute_sync('print("looking")\nreturn tools.orders.lookup({ id = "zz" })')
    assert r.ok is False and r.value is None
    assert r.error == Diagnostic(
        "ToolFailure",
        "No order with that id; list ids with tools.orders.list().",
        Location(2, 27),
    )
    assert r.logs == ("looking",)
    assert r.tool_calls[0].status == "failure"
    assert r.to_dict()["error"]["location"] == {"line": 2, "column": 27}


def test_parse_error_is_the_librarys():
    r = CodeMode().execute_sync("return (")
    assert r.ok is False and r.error.kind == "ParseError"
    assert r.error.location is not None


def test_nested_dicts_and_dotted_paths_make_the_same_tree(order_tools):
    nested = CodeMode(tools={"orders": {"lookup": order_tools["orders.lookup"]}})
    assert [e["path"] for e in nested.catalog()] == ["orders.lookup"]
    assert nested.catalog() == CodeMode(tools=order_tools).catalog()


def test_build_errors_are_value_errors_with_the_librarys_message(order_tools):
    with pytest.raises(ValueError, match="empty segment"):
        CodeMode(tools={"a..b": order_tools["orders.lookup"]})
    with pytest.raises(ValueError, match="unknown language"):
        CodeMode(language="python")
    with pytest.raises(ValueError, match="invalid input schema"):
        CodeMode(tools={"t": Tool("bad", {"type": 5}, lambda i: i)})
    with pytest.raises(TypeError, match="expected a Tool"):
        CodeMode(tools={"t": 5})


def _cli():
    exe = os.environ.get("CODEMODE_CLI")
    if exe:  # set by ci.sh: the CLI must be there
        assert os.path.exists(exe), f"CODEMODE_CLI={exe} does not exist"
        return exe
    exe = str(ROOT / "target" / "debug" / "codemode")
    if not os.path.exists(exe):
        pytest.skip(f"the codemode CLI is not built at {exe} (cargo build -p codemode-cli)")
    return exe


@pytest.mark.parametrize(
    "language,program",
    [
        ("lua", 'print("start")\nlocal r = tools.t.echo({ a = 1, b = { "x" } })\nreturn { got = r, n = #r.b }'),
        ("js", 'console.log("start");\nconst r = await tools.t.echo({ a: 1, b: ["x"] });\nreturn { got: r, n: r.b.length };'),
        ("lua", "local r = tools.t.echo({ a = 1 })\nerror(\"stop here\")"),
    ],
)
def test_wire_shape_equals_the_clis(tmp_path, language, program):
    exe = _cli()
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    manifest = tmp_path / "tools.json"
    manifest.write_text(
        json.dumps({"tools": {"t.echo": {"description": "Echo.", "input": schema, "command": ["cat"]}}})
    )
    src = tmp_path / ("p.lua" if language == "lua" else "p.js")
    src.write_text(program)
    cli = subprocess.run(
        [exe, "run", "--lang", language, "--tools", str(manifest), str(src)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.stderr == ""
    cm = CodeMode(tools={"t.echo": Tool("Echo.", schema, lambda i: i)}, language=language)
    r = cm.execute_sync(program)
    assert r.to_json() == cli.stdout.strip()
    assert cli.returncode == (0 if r.ok else 1)
