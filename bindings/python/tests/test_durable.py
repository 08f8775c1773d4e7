"""Durable executions: pausing at payments.refund, resuming with approvals, values, errors and
denials, in this runtime, a fresh one and a fresh process; every refusal is a SnapshotError."""

import asyncio
import json
import pathlib
import subprocess
import sys

import pytest

from codemode import (
    CodeMode,
    Hooks,
    Location,
    MemoryStore,
    PendingCall,
    SnapshotError,
    Tool,
    ToolCall,
)
from conftest import cancel_in_call

HERE = pathlib.Path(__file__).resolve().parent

OBJECT = {"type": "object"}

# A refund per order, then the total refunded; the second refund is a second pause.
PROGRAM = """\
local o = tools.orders.lookup({ id = "o1" })
print("refunding " .. o.id)
local r = tools.payments.refund({ order = o.id, amount = o.total })
return { refund = r.id, total = o.total }
"""

TWO_REFUNDS = """\
local a = tools.payments.refund({ order = "o1", amount = 42 })
print("first " .. a.id)
local b = tools.payments.refund({ order = "o2", amount = 7 })
return { a.id, b.id }
"""


def payments(refunds, **options):
    """A runtime with orders.lookup and payments.refund, which appends to ``refunds``."""

    def refund(input):
        refunds.append(input)
        return {"id": f"r-{input['order']}", "amount": input["amount"]}

    def lookup(input):
        return {"id": input["id"], "total": 42}

    return CodeMode(
        tools={
            "orders.lookup": Tool("Look up an order.", OBJECT, lookup),
            "payments.refund": Tool("Refund an order.", OBJECT, refund),
        },
        **options,
    )


def test_pause_at_refund_then_approve_runs_it_once():
    straight_refunds = []
    straight = payments(straight_refunds).execute_sync(PROGRAM)
    assert straight.value == {"refund": "r-o1", "total": 42}

    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    paused = cm.execute_sync(PROGRAM)
    assert (paused.status, paused.ok, paused.error, paused.value) == ("paused", False, None, None)
    assert paused.pending == (
        PendingCall(2, "payments.refund", {"order": "o1", "amount": 42}, Location(3, 32)),
    )
    assert paused.tool_calls == (ToolCall("orders.lookup", {"id": "o1"}, "success"),)
    assert paused.logs == ("refunding o1",)
    assert isinstance(paused.snapshot, bytes) and paused.snapshot.startswith(b"CODEMODE")
    assert len(paused.snapshot_id) == 32 and int(paused.snapshot_id, 16) > 0
    assert refunds == []
    assert paused.to_dict() == {
        "ok": False,
        "status": "paused",
        "pending": [
            {
                "id": 2,
                "name": "payments.refund",
                "input": {"order": "o1", "amount": 42},
                "location": {"line": 3, "column": 32},
            }
        ],
        "logs": ["refunding o1"],
        "toolCalls": [{"name": "orders.lookup", "input": {"id": "o1"}, "status": "success"}],
    }

    done = cm.resume_sync(paused, {2: "run"})
    assert refunds == [{"order": "o1", "amount": 42}]
    assert done.status == "ok"
    assert done == straight
    assert done.to_json() == straight.to_json()
    # The same bytes approved through {"approve": True} in another runtime object.
    again = payments(refunds, pause_on=["payments.refund"]).resume_sync(
        paused.snapshot, {2: {"approve": True}}
    )
    assert again == straight and len(refunds) == 2


def test_a_denial_is_a_catchable_failure_in_the_program():
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    source = """\
local ok, err = pcall(tools.payments.refund, { order = "o1", amount = 42 })
if ok then return "refunded" end
return "not refunded: " .. tostring(err)
"""
    paused = cm.execute_sync(source)
    (call,) = paused.pending
    done = cm.resume_sync(paused, {call.id: {"deny": "Refunds over 40 need a manager."}})
    assert done.ok and done.value == "not refunded: Refunds over 40 need a manager."
    assert done.tool_calls == (
        ToolCall("payments.refund", {"order": "o1", "amount": 42}, "denied"),
    )
    assert refunds == []
    # Uncaught, it fails the run with that message; an error reply is a `failure`.
    failed = cm.resume_sync(paused.snapshot, {call.id: {"error": "The bank is down."}})
    assert failed.ok  # caught by pcall too
    assert failed.value == "not refunded: The bank is down."
    assert failed.tool_calls[0].status == "failure"
    uncaught = cm.execute_sync(PROGRAM)
    denied = cm.resume_sync(uncaught, {2: {"deny": "No."}})
    assert (denied.status, denied.error.kind, denied.error.message) == ("error", "ToolFailure", "No.")
    assert refunds == []


def test_a_value_reply_answers_the_call_without_running_it():
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    done = cm.resume_sync(cm.execute_sync(PROGRAM), {2: {"value": {"id": "manual-7"}}})
    assert done.value == {"refund": "manual-7", "total": 42}
    assert done.tool_calls[1] == ToolCall("payments.refund", {"order": "o1", "amount": 42}, "success")
    assert refunds == []


def test_a_second_pause_in_the_same_run():
    straight = payments([]).execute_sync(TWO_REFUNDS)
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    first = cm.execute_sync(TWO_REFUNDS)
    assert [p.input["order"] for p in first.pending] == ["o1"]
    second = cm.resume_sync(first, {first.pending[0].id: "run"})
    assert second.status == "paused"
    assert [p.input["order"] for p in second.pending] == ["o2"]
    assert second.tool_calls == (
        ToolCall("payments.refund", {"order": "o1", "amount": 42}, "success"),
    )
    assert second.logs == ("first r-o1",)
    assert second.snapshot_id != first.snapshot_id
    done = cm.resume_sync(second, {second.pending[0].id: "run"})
    assert done == straight
    assert refunds == [{"order": "o1", "amount": 42}, {"order": "o2", "amount": 7}]


RESUME_IN_A_SUBPROCESS = """\
import json, sys
sys.path.insert(0, sys.argv[1])
from test_durable import payments
refunds = []
cm = payments(refunds, pause_on=["payments.refund"])
snapshot = open(sys.argv[2], "rb").read()
r = cm.resume_sync(snapshot, {int(sys.argv[3]): "run"})
print(json.dumps({"result": r.to_dict(), "refunds": refunds}))
"""


def test_a_snapshot_resumes_in_a_fresh_process(tmp_path):
    straight = payments([]).execute_sync(PROGRAM)
    refunds = []
    paused = payments(refunds, pause_on=["payments.refund"]).execute_sync(PROGRAM)
    path = tmp_path / "refund.snapshot"
    path.write_bytes(paused.snapshot)
    out = subprocess.run(
        [sys.executable, "-c", RESUME_IN_A_SUBPROCESS, str(HERE), str(path), "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    got = json.loads(out.stdout)
    assert got["result"] == straight.to_dict()
    assert got["refunds"] == [{"order": "o1", "amount": 42}]
    assert refunds == []


def test_refusals_are_snapshot_errors():
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    paused = cm.execute_sync(PROGRAM)
    snap = paused.snapshot
    cases = [
        (b"not a snapshot", {2: "run"}, "these bytes are not a codemode snapshot"),
        (snap[: len(snap) // 2], {2: "run"}, "it is damaged"),
        (snap, {}, "no reply was given for pending call 2 (payments.refund)"),
        (snap, {2: "run", 9: "run"}, "a reply was given for call 9"),
    ]
    for data, replies, message in cases:
        with pytest.raises(SnapshotError, match="The snapshot cannot be resumed: ") as e:
            cm.resume_sync(data, replies)
        assert message in str(e.value)
    other = CodeMode(
        tools={
            "orders.lookup": Tool("Look up an order.", OBJECT, lambda i: i),
            "payments.refund": Tool("Refund an order.", OBJECT, lambda i: i),
            "payments.void": Tool("Void a payment.", OBJECT, lambda i: i),
        }
    )
    with pytest.raises(SnapshotError, match="taken against other tools"):
        other.resume_sync(snap, {2: "run"})
    with pytest.raises(SnapshotError, match="taken from a Lua program"):
        payments([], language="js").resume_sync(snap, {2: "run"})
    assert refunds == []
    # A SnapshotError is a ValueError; a reply that is not one is a plain ValueError.
    assert issubclass(SnapshotError, ValueError)
    with pytest.raises(ValueError, match=r"replies\[2\]: the reply has the unknown key \"ok\"") as e:
        cm.resume_sync(snap, {2: {"ok": True}})
    assert not isinstance(e.value, SnapshotError)
    with pytest.raises(TypeError, match="not a pending call id"):
        cm.resume_sync(snap, {"2": "run"})
    with pytest.raises(TypeError, match="this Result is not paused"):
        cm.resume_sync(cm.execute_sync("return 1"), {})


def test_tampered_signed_bytes_are_refused():
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"], snapshot_key=b"k" * 32)
    paused = cm.execute_sync(PROGRAM)
    assert b"k" * 32 not in paused.snapshot
    for at in (13, len(paused.snapshot) // 2, len(paused.snapshot) - 1):
        tampered = bytearray(paused.snapshot)
        tampered[at] ^= 1
        with pytest.raises(SnapshotError, match="signature does not match"):
            cm.resume_sync(bytes(tampered), {2: "run"})
    with pytest.raises(SnapshotError, match="no snapshot key"):
        payments([], pause_on=["payments.refund"]).resume_sync(paused, {2: "run"})
    with pytest.raises(SnapshotError, match="signature does not match"):
        payments([], snapshot_key=b"another").resume_sync(paused, {2: "run"})
    assert refunds == []
    assert cm.resume_sync(paused, {2: "run"}).ok and len(refunds) == 1


def test_a_store_keeps_a_snapshot_single_use():
    refunds = []
    cm = payments(refunds, pause_on=["payments.refund"])
    store = MemoryStore()
    paused = cm.execute_sync(PROGRAM)
    assert cm.resume_sync(paused, {2: "run"}, store=store).ok
    with pytest.raises(SnapshotError, match="resumed already"):
        cm.resume_sync(paused, {2: "run"}, store=store)
    with pytest.raises(SnapshotError, match="resumed already"):
        asyncio.run(cm.resume(paused.snapshot, {2: "run"}, store=store))
    assert len(refunds) == 1
    # Another pause of the same program has its own id.
    assert cm.resume_sync(cm.execute_sync(PROGRAM), {2: "run"}, store=store).ok
    assert len(refunds) == 2

    class Refusing:
        def claim(self, snapshot_id):
            raise RuntimeError(f"claimed elsewhere: {snapshot_id}")

    with pytest.raises(RuntimeError, match=f"claimed elsewhere: {paused.snapshot_id}"):
        cm.resume_sync(paused, {2: "run"}, store=Refusing())
    assert len(refunds) == 2


def test_pause_before_picks_calls_and_tool_before_runs_on_approval():
    seen = []
    hooks = Hooks(
        pause_before=lambda name, input: name == "payments.refund" and input["amount"] > 10,
        tool_before=lambda name, input: seen.append(name),
    )
    refunds = []
    cm = payments(refunds, hooks=hooks)
    paused = cm.execute_sync(TWO_REFUNDS)
    assert [p.input for p in paused.pending] == [{"order": "o1", "amount": 42}]
    assert seen == []
    done = cm.resume_sync(paused, {paused.pending[0].id: "run"})
    # The 7 refund was not paused.
    assert done.value == ["r-o1", "r-o2"]
    assert seen == ["payments.refund", "payments.refund"]
    assert len(refunds) == 2


def test_pause_before_must_be_sync_and_pauses_when_it_raises(caplog):
    async def later(name, input):
        return True

    with pytest.raises(TypeError, match="pause_before must answer at once"):
        payments([], hooks=Hooks(pause_before=later))

    def broken(name, input):
        raise KeyError("oops")

    refunds = []
    cm = payments(refunds, hooks=Hooks(pause_before=broken))
    paused = cm.execute_sync(PROGRAM)
    # The lookup raised too: every call pauses.
    assert paused.status == "paused" and paused.pending[0].name == "orders.lookup"
    assert "pause_before hook raised" in caplog.text
    assert refunds == []


def test_pause_on_a_path_that_is_no_tool_is_a_value_error():
    cm = payments([], pause_on=["payments.refnd"])
    with pytest.raises(ValueError, match="pause_on: no tool has the path 'payments.refnd'"):
        cm.execute_sync(PROGRAM)
    # Tools may be added after the constructor.
    late = CodeMode(pause_on=["payments.refund"])
    late.add_tool("payments.refund", Tool("Refund.", OBJECT, lambda i: {"id": "r"}))
    assert late.execute_sync("return tools.payments.refund({}).id").status == "paused"


def test_async_resume_with_async_tools():
    refunds = []

    async def refund(input):
        await asyncio.sleep(0.001)
        refunds.append(input)
        return {"id": "r-1"}

    cm = CodeMode(
        tools={"payments.refund": Tool("Refund.", OBJECT, refund)},
        pause_on=["payments.refund"],
    )
    source = 'return tools.payments.refund({ order = "o1" }).id'

    async def flow():
        paused = await cm.execute(source)
        assert paused.status == "paused"
        return await cm.resume(paused, {paused.pending[0].id: "run"})

    done = asyncio.run(flow())
    assert done.value == "r-1" and refunds == [{"order": "o1"}]
    # resume_sync runs the coroutines under asyncio.run, as execute_sync does.
    paused = cm.execute_sync(source)
    assert cm.resume_sync(paused, {paused.pending[0].id: "run"}).value == "r-1"
    assert len(refunds) == 2


def test_cancelling_the_task_interrupts_a_resumed_execution():
    async def resume(cm):
        paused = await cm.execute("return tools.payments.refund({})")
        assert paused.status == "paused"
        return await cm.resume(paused, {paused.pending[0].id: "run"})

    after = cancel_in_call(
        lambda hang, tool_after: CodeMode(
            tools={"payments.refund": Tool("Refund.", OBJECT, hang)},
            hooks=Hooks(tool_after=tool_after),
            pause_on=["payments.refund"],
        ),
        resume,
    )
    assert after == [("payments.refund", "interrupted")]


JS_PROGRAM = """\
const o = await tools.orders.lookup({ id: "o1" });
console.log("refunding " + o.id);
const [a, b] = await Promise.all([
  tools.payments.refund({ order: o.id, amount: o.total }),
  tools.payments.refund({ order: "o2", amount: 7 }),
]);
return { refunds: [a.id, b.id], total: o.total };
"""


def test_a_javascript_run_pauses_at_two_calls_in_flight_and_resumes():
    straight = payments([], language="js").execute_sync(JS_PROGRAM)
    assert straight.value == {"refunds": ["r-o1", "r-o2"], "total": 42}
    refunds = []
    cm = payments(refunds, language="js", pause_on=["payments.refund"])
    paused = cm.execute_sync(JS_PROGRAM)
    assert paused.status == "paused"
    assert [p.input for p in paused.pending] == [
        {"order": "o1", "amount": 42},
        {"order": "o2", "amount": 7},
    ]
    assert refunds == []
    fresh = payments(refunds, language="js", pause_on=["payments.refund"])
    done = fresh.resume_sync(paused.snapshot, {p.id: "run" for p in paused.pending})
    assert done.to_json() == straight.to_json()
    assert refunds == [{"order": "o1", "amount": 42}, {"order": "o2", "amount": 7}]
