"""examples/python runs as shipped."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_agent_example_runs():
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "agent.py")],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout.splitlines()
    assert out[0] == (
        'execute -> {"ok":true,"value":{"open":["o2"],"total":49},'
        '"logs":["looked at ada\'s orders"],"toolCalls":['
        '{"name":"orders.list","input":{"customer":"ada"},"status":"success"},'
        '{"name":"orders.lookup","input":{"id":"o1"},"status":"success"},'
        '{"name":"orders.lookup","input":{"id":"o2"},"status":"success"}]}'
    )
    assert out[1] == "Ada has spent 49 in all; order o2 is still open."


def _python_blocks(path):
    text = path.read_text()
    blocks = text.split("```python\n")[1:]
    return [b.split("```", 1)[0] for b in blocks]


def test_readme_examples_run(capsys):
    blocks = _python_blocks(ROOT / "README.md") + _python_blocks(
        ROOT / "bindings" / "python" / "README.md"
    )
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "README", "exec"), {"__name__": "readme"})
    assert "tools.orders.lookup" in capsys.readouterr().out
