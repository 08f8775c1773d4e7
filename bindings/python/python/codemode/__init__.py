"""codemode: run model-written Lua or JavaScript programs over your Python tools.

A host describes its tools once, builds a :class:`CodeMode`, and runs the programs a model
writes::

    from codemode import CodeMode, Tool, ToolError

    def lookup(input):
        if input["id"] != "o1":
            raise ToolError("No order with that id; list ids with tools.orders.list().")
        return {"id": "o1", "total": 42}

    cm = CodeMode(tools={"orders.lookup": Tool("Look up an order by id.",
        {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        lookup)})
    result = cm.execute_sync('return tools.orders.lookup({ id = "o1" }).total')
    assert result.ok and result.value == 42

Programs run in interpreters written in safe Rust (the ``codemode`` crate); this package
converts values at the edge and calls it, so every limit, status and diagnostic is the
library's, and :meth:`Result.to_json` is byte for byte what ``codemode run`` prints.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import _codemode
from ._schema import handler_and_schemas

__all__ = [
    "CodeMode",
    "Diagnostic",
    "Extension",
    "Hooks",
    "Limits",
    "Location",
    "MemoryStore",
    "PendingCall",
    "Result",
    "SnapshotError",
    "Tool",
    "ToolCall",
    "ToolError",
    "DEFAULT_INSTRUCTIONS_BUDGET",
]

#: Default token budget of :meth:`CodeMode.instructions` (o200k tokens).
DEFAULT_INSTRUCTIONS_BUDGET: int = _codemode.DEFAULT_INSTRUCTIONS_BUDGET

logger = logging.getLogger("codemode")


class SnapshotError(ValueError):
    """A paused execution's snapshot cannot be resumed, and nothing of the program ran.

    Raised by :meth:`CodeMode.resume` with the library's message saying why: the bytes are no
    snapshot, are cut short or altered, have another format version, were taken from another
    language or against other tools (tools added, removed, other schemas), are signed with
    another ``snapshot_key`` (or not signed when the runtime has one), a reply is missing for a
    pending call or given for an id the execution does not wait on, or the ``store`` saw the
    snapshot resumed already.
    """


class ToolError(Exception):
    """The one channel for a message the program sees.

    Raise it from a tool handler (or a ``before`` hook) with a message written for the model:
    what went wrong and what to do instead. The program gets exactly that message (catchable;
    uncaught, the run fails with ``ToolFailure``). Any other exception reaches the program only
    as ``"Tool 'x' failed."`` and is logged with its traceback on the ``codemode`` logger.
    """


@dataclass(frozen=True)
class Limits:
    """Limits of every execution; ``None`` keeps the library's default.

    - ``timeout_ms``: wall-clock milliseconds per execution (``TimeoutExceeded``).
    - ``max_tool_calls``: host calls per execution (``ToolCallLimitExceeded``).
    - ``max_output_bytes``: bytes of value, logs and tool-call inputs in the result (cut, never
      fails a run; ``truncated`` and a ``Truncated`` warning say so).
    - ``max_memory_bytes``: bytes the program's interpreter may allocate.

    Out-of-range values raise ``ValueError`` with the library's message when the
    :class:`CodeMode` is built.
    """

    timeout_ms: Optional[int] = None
    max_tool_calls: Optional[int] = None
    max_output_bytes: Optional[int] = None
    max_memory_bytes: Optional[int] = None


@dataclass(frozen=True)
class Tool:
    """A host tool the program calls as ``tools.<path>(input)``.

    ``handler(input)`` gets the input (a ``dict``, checked against ``input_schema``) and returns
    JSON data (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``, or a pydantic
    model); it may be ``async def``. ``output_schema``, when given, is checked against every
    output (``InvalidToolOutput``).
    """

    description: str
    input_schema: Mapping[str, Any]
    handler: Callable[..., Any]
    output_schema: Optional[Mapping[str, Any]] = None


@dataclass(frozen=True)
class Hooks:
    """Callbacks around every host call (each optional, sync or ``async def``).

    - ``tool_before(name, input)``: return ``None`` to allow; return a ``str`` (or raise
      :class:`ToolError`) to deny with that message (the call is listed as ``denied`` and the
      program gets a catchable ``ToolFailure`` with the message). Any other exception denies
      with "The host refused this call." and is logged.
    - ``tool_after(name, input, outcome)``: ``outcome`` is
      ``{"status": "success"|"failure"|"denied"|"interrupted", "value"?, "kind"?, "message"?}``;
      runs for every call whose ``before`` ran, also when the run times out or is cancelled.
    - ``extension_before(name, args)`` / ``extension_after(name, args, outcome)``: the same for
      extension functions (``args`` is the list of arguments).
    - ``pause_before(name, input)``: a true return pauses the execution at this tool call
      instead of running it (see :meth:`CodeMode.resume`); asked when the call is made, so it
      must be a plain function (not ``async def``; ``TypeError`` otherwise). One that raises
      pauses the call too (and is logged). ``tool_before`` runs when the call is approved.
    """

    tool_before: Optional[Callable[[str, Any], Any]] = None
    tool_after: Optional[Callable[[str, Any, Dict[str, Any]], Any]] = None
    extension_before: Optional[Callable[[str, List[Any]], Any]] = None
    extension_after: Optional[Callable[[str, List[Any], Dict[str, Any]], Any]] = None
    pause_before: Optional[Callable[[str, Any], bool]] = None


@dataclass(frozen=True)
class Extension:
    """Host functions installed as a guest global.

    ``functions`` is either one callable (the global ``name`` is itself a function:
    ``fetch(url)``) or a mapping of dotted paths below the global to callables (``{"read": f}``
    gives ``fs.read``). Each gets the call's arguments positionally and returns JSON data;
    ``async def`` ones return promises in JavaScript (``await fs.read(p)``). Errors reach the
    program as ``ExecutionFailure``; :class:`ToolError` keeps its message.
    """

    name: str
    functions: Union[Callable[..., Any], Mapping[str, Callable[..., Any]]]


@dataclass(frozen=True)
class Location:
    """Where in the program: line and column (bytes within the line), both from 1."""

    line: int
    column: int


@dataclass(frozen=True)
class Diagnostic:
    """A model-facing error or warning: ``kind`` (``"ToolFailure"``, ``"TimeoutExceeded"``, ...),
    ``message`` (what went wrong and what to do instead), ``location`` and ``suggestions``."""

    kind: str
    message: str
    location: Optional[Location] = None
    suggestions: Sequence[str] = ()

    @classmethod
    def _from_wire(cls, d: Mapping[str, Any]) -> "Diagnostic":
        loc = d.get("location")
        return cls(
            kind=d["kind"],
            message=d["message"],
            location=Location(loc["line"], loc["column"]) if loc else None,
            suggestions=tuple(d.get("suggestions", ())),
        )


@dataclass(frozen=True)
class ToolCall:
    """One admitted host call: ``name`` (``"orders.lookup"``, ``"search"``), ``input``, and
    ``status`` (``"success"``, ``"failure"``, ``"denied"``, ``"interrupted"``)."""

    name: str
    input: Any
    status: str


@dataclass(frozen=True)
class PendingCall:
    """A tool call a paused execution waits on: ``id`` (the key of its reply in
    :meth:`CodeMode.resume`), ``name`` (the tool's path), ``input`` (checked against its
    schema) and ``location`` in the program."""

    id: int
    name: str
    input: Any
    location: Optional[Location] = None


@dataclass(frozen=True)
class Result:
    """The outcome of one execution.

    ``status`` is ``"ok"``, ``"error"`` or ``"paused"``. ``ok`` and ``value`` (the program's
    return value) on success, ``error`` on failure; ``logs`` (``print`` lines), ``warnings``,
    ``truncated`` (the output was cut by ``max_output_bytes``) and ``tool_calls`` either way.
    A paused execution (``ok`` false, ``error`` ``None``) has the calls it waits on in
    ``pending`` (not yet in ``tool_calls``), and ``snapshot`` (``bytes``: store them anywhere,
    resume them with :meth:`CodeMode.resume`) with its ``snapshot_id`` (32 hex digits).
    :meth:`to_dict` / :meth:`to_json` give the wire shape (camelCase ``toolCalls``; the
    snapshot is not in it), as the CLI prints it.
    """

    ok: bool
    value: Any
    error: Optional[Diagnostic]
    logs: Sequence[str]
    warnings: Sequence[Diagnostic]
    truncated: bool
    tool_calls: Sequence[ToolCall]
    pending: Sequence[PendingCall] = ()
    snapshot: Optional[bytes] = field(repr=False, default=None)
    snapshot_id: Optional[str] = None
    _json: str = field(repr=False, compare=False, default="")

    @property
    def status(self) -> str:
        """``"paused"`` when the execution waits on ``pending`` calls, else ``"ok"`` or
        ``"error"``."""
        if self.snapshot is not None:
            return "paused"
        return "ok" if self.ok else "error"

    @classmethod
    def _from_native(cls, outcome: Any) -> "Result":
        text, snapshot, snapshot_id, refusal = outcome
        if refusal is not None:
            raise SnapshotError(refusal)
        return cls._from_json(text, snapshot, snapshot_id)

    @classmethod
    def _from_json(
        cls, text: str, snapshot: Optional[bytes] = None, snapshot_id: Optional[str] = None
    ) -> "Result":
        d = json.loads(text)
        err = d.get("error")
        return cls(
            ok=d["ok"],
            value=d.get("value"),
            error=Diagnostic._from_wire(err) if err else None,
            logs=tuple(d.get("logs", ())),
            warnings=tuple(Diagnostic._from_wire(w) for w in d.get("warnings", ())),
            truncated=d.get("truncated", False),
            tool_calls=tuple(
                ToolCall(c["name"], c["input"], c["status"]) for c in d.get("toolCalls", ())
            ),
            pending=tuple(
                PendingCall(
                    p["id"],
                    p["name"],
                    p["input"],
                    Location(p["location"]["line"], p["location"]["column"])
                    if "location" in p
                    else None,
                )
                for p in d.get("pending", ())
            ),
            snapshot=snapshot,
            snapshot_id=snapshot_id,
            _json=text,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The wire shape as fresh Python data (keys in wire order)."""
        return json.loads(self._json)

    def to_json(self) -> str:
        """The wire shape as one line of JSON text, exactly as the library serializes it."""
        return self._json


class MemoryStore:
    """Keeps snapshots single-use in this process (the library's ``MemoryStore``): give it to
    :meth:`CodeMode.resume` as ``store``, and a snapshot resumed once through it is refused the
    second time (:class:`SnapshotError` "resumed already"), so an approval cannot run a call
    twice. A host that resumes in several processes passes its own object with a
    ``claim(snapshot_id: str)`` method that raises when the id was claimed before (over its
    database); that exception propagates from ``resume``."""

    def __init__(self) -> None:
        self._store = _codemode.MemoryStore()

    def claim(self, snapshot_id: str) -> None:
        """Claim ``snapshot_id`` for one resume; :class:`SnapshotError` if it was before."""
        refusal = self._store.claim(snapshot_id)
        if refusal is not None:
            raise SnapshotError(f"The snapshot cannot be resumed: {refusal}")


#: What :meth:`CodeMode.resume` takes as a snapshot: the bytes, or the paused Result itself.
SnapshotArg = Union[bytes, bytearray, memoryview, Result]


def _snapshot_bytes(snapshot: SnapshotArg) -> bytes:
    if isinstance(snapshot, Result):
        if snapshot.snapshot is None:
            raise TypeError(
                f"resume: this Result is not paused (its status is {snapshot.status!r}); "
                "give a paused Result or its snapshot bytes"
            )
        return snapshot.snapshot
    if isinstance(snapshot, (bytes, bytearray, memoryview)):
        return bytes(snapshot)
    raise TypeError(
        f"resume: snapshot must be bytes or a paused Result, got {type(snapshot).__name__}"
    )


def _replies(replies: Mapping[int, Any]) -> List[Any]:
    if not isinstance(replies, Mapping):
        raise TypeError(
            "resume: replies must be a dict of pending call id to reply, e.g. {1: \"run\"}, "
            f"got {type(replies).__name__}"
        )
    out = []
    for k, v in replies.items():
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise TypeError(
                f"resume: the reply key {k!r} is not a pending call id (an int from "
                "Result.pending[i].id)"
            )
        out.append((k, v))
    return out


async def _awaited(future: "asyncio.Future[Any]", execution: "_codemode.Execution") -> Result:
    """The Result ``future`` resolves with; cancelling the awaiting task cancels ``execution``
    (calls in flight end ``interrupted``, their ``after`` hooks run), then propagates."""
    try:
        outcome = await future
    except asyncio.CancelledError:
        execution.cancel()
        raise
    return Result._from_native(outcome)


def _log_exception(where: str, exc: BaseException) -> None:
    logger.error("%s raised", where, exc_info=(type(exc), exc, exc.__traceback__))


def _set_if_pending(future: "asyncio.Future[str]", value: str) -> None:
    if not future.done():
        future.set_result(value)


_GLUE = (
    asyncio.run_coroutine_threadsafe,
    types.CoroutineType,
    _log_exception,
    _set_if_pending,
    ToolError,
)


def _is_async(fn: Any) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)
    )


ToolsArg = Mapping[str, Any]


class CodeMode:
    """A Code Mode runtime: tools, namespaces, language, limits, hooks and extensions.

    - ``tools``: a mapping of dotted paths (``"orders.lookup"``) or nested mappings
      (``{"orders": {"lookup": ...}}``) to :class:`Tool` values or plain functions (whose input
      schema comes from their type hints, as with :meth:`tool`).
    - ``namespaces``: ``{"orders": "Order management"}``, descriptions shown in the catalog.
    - ``language``: ``"lua"`` (default), ``"js"`` or ``"javascript"``.
    - ``pause_on``: tool paths (``["payments.refund"]``) whose calls pause the execution for
      the host's approval instead of running (see :meth:`resume`); a path that names no tool is
      a ``ValueError`` at the first execution. ``hooks=Hooks(pause_before=...)`` picks calls one by one.
    - ``snapshot_key``: bytes to sign every snapshot with (HMAC-SHA256); snapshots not signed
      with it are refused. Keep it secret; it is never inside a snapshot.

    Build errors (a bad path, an invalid schema, a limit out of range) raise ``ValueError`` with
    the library's message, at the first use after a change. Executions may run concurrently.
    """

    def __init__(
        self,
        tools: Optional[ToolsArg] = None,
        namespaces: Optional[Mapping[str, str]] = None,
        language: str = "lua",
        limits: Optional[Limits] = None,
        hooks: Optional[Hooks] = None,
        extensions: Sequence[Extension] = (),
        pause_on: Sequence[str] = (),
        snapshot_key: Optional[bytes] = None,
    ) -> None:
        if isinstance(pause_on, str):
            pause_on = (pause_on,)
        self._pause_on = [str(p) for p in pause_on]
        self._snapshot_key = None if snapshot_key is None else bytes(snapshot_key)
        self._tools: Dict[str, Tool] = {}
        self._namespaces: Dict[str, str] = dict(namespaces or {})
        self._language = language
        self._limits = limits or Limits()
        self._hooks = hooks
        self._extensions = list(extensions)
        self._rt: Optional[_codemode.Runtime] = None
        self._pause_checked = False
        self._async = False
        self._mcp_config: Optional[str] = None
        self._add_tools("", tools or {})
        # Fail early on a bad language or limit rather than at the first execution.
        self._runtime()

    def _add_tools(self, prefix: str, tools: ToolsArg) -> None:
        if self._mcp_config is not None and self._rt is not None:
            raise RuntimeError("tools cannot be added to a CodeMode made by from_mcp_config")
        for key, value in tools.items():
            path = f"{prefix}{key}"
            if isinstance(value, Mapping):
                self._add_tools(path + ".", value)
            elif isinstance(value, Tool):
                self._tools[path] = value
            elif callable(value):
                self._tools[path] = _tool_from_function(value)
            else:
                raise TypeError(
                    f"tool '{path}': expected a Tool, a function or a dict of them, "
                    f"got {type(value).__name__}"
                )
        self._rt = None

    def add_tool(self, path: str, tool: Union[Tool, Callable[..., Any]]) -> None:
        """Add a tool at the dotted ``path`` (a :class:`Tool` or a plain function)."""
        self._add_tools("", {path: tool})
        self._runtime()

    def tool(
        self,
        path: str,
        description: Optional[str] = None,
        output_schema: Optional[Mapping[str, Any]] = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: register a function as the tool at ``path``; returns it unchanged.

        The input schema comes from the parameters' type hints: one parameter typed as a
        pydantic model or a ``TypedDict`` is the whole input (the handler gets the validated
        model, or the dict); otherwise each parameter is a property of the input object
        (required unless it has a default). With pydantic installed every annotation pydantic
        understands works and inputs are validated by it; without, ``str``, ``int``, ``float``,
        ``bool``, ``list``, ``dict``, ``Optional[...]``, ``List[...]`` and ``Dict[str, ...]``
        do. The return annotation gives the output schema (pydantic only) unless
        ``output_schema`` is given. The description defaults to the docstring.
        """

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.add_tool(path, _tool_from_function(fn, description, output_schema))
            return fn

        return register

    def _has_async(self) -> bool:
        fns: List[Any] = [t.handler for t in self._tools.values()]
        if self._hooks is not None:
            fns += [
                self._hooks.tool_before,
                self._hooks.tool_after,
                self._hooks.extension_before,
                self._hooks.extension_after,
            ]
        for e in self._extensions:
            fns += list(e.functions.values()) if isinstance(e.functions, Mapping) else [e.functions]
        return any(f is not None and _is_async(f) for f in fns)

    @classmethod
    def from_mcp_config(
        cls,
        path: Union[str, "os.PathLike[str]"],
        tools: Optional[ToolsArg] = None,
        namespaces: Optional[Mapping[str, str]] = None,
        hooks: Optional[Hooks] = None,
        extensions: Sequence[Extension] = (),
    ) -> "CodeMode":
        """A runtime over the MCP servers of the config file at ``path`` (the format of
        ``codemode mcp --config``: ``mcpServers``, and a ``codemode`` section with the
        language, limits, OpenAPI specs), each server's tools under ``tools.<server>``, plus
        the Python ``tools``, ``namespaces``, ``hooks`` and ``extensions``.

        Starts every server (the call blocks until they have listed their tools). A server
        that fails to start is reported on stderr, named in :meth:`instructions`, and its
        namespace answers calls with the startup error while it is retried. Call
        :meth:`close` (or use ``with``) to stop the servers. Tools cannot be added later.
        Errors: ``ValueError`` with the config or build error. Attachments (images, audio)
        that servers return are not kept.
        """
        self = cls.__new__(cls)
        self._tools, self._namespaces, self._hooks = {}, dict(namespaces or {}), hooks
        self._extensions = list(extensions)
        self._language, self._limits = "", Limits()
        self._pause_on, self._snapshot_key = [], None
        self._rt, self._async = None, False
        self._pause_checked = True
        self._mcp_config = os.fspath(path)
        self._add_tools("", tools or {})
        self._rt = self._build(gateway=True)
        return self

    def close(self) -> None:
        """Stop the MCP servers of :meth:`from_mcp_config` (nothing for other runtimes)."""
        if self._rt is not None:
            self._rt.close()

    def __enter__(self) -> "CodeMode":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _runtime(self) -> "_codemode.Runtime":
        if self._rt is None:
            self._rt = self._build(gateway=False)
            self._pause_checked = False
        return self._rt

    def _running(self) -> "_codemode.Runtime":
        """The runtime, its ``pause_on`` paths checked against its tools (once per build)."""
        rt = self._runtime()
        if not self._pause_checked:
            rt.check_pause_on()
            self._pause_checked = True
        return rt

    def _build(self, gateway: bool) -> "_codemode.Runtime":
        pair = lambda f: None if f is None else (f, _is_async(f))  # noqa: E731
        tools = [
            (p, t.description, t.input_schema, t.output_schema, pair(t.handler))
            for p, t in self._tools.items()
        ]
        hooks = None
        if self._hooks is not None:
            h = self._hooks
            if h.pause_before is not None and _is_async(h.pause_before):
                raise TypeError(
                    "hooks.pause_before must answer at once: give a plain function returning "
                    "True (pause) or False, not an async def"
                )
            hooks = (
                pair(h.tool_before),
                pair(h.tool_after),
                pair(h.extension_before),
                pair(h.extension_after),
                pair(h.pause_before),
            )
        extensions = []
        for e in self._extensions:
            fns = e.functions if isinstance(e.functions, Mapping) else {"": e.functions}
            extensions.append(
                (e.name, [(p, pair(f), _is_async(f)) for p, f in fns.items()])
            )
        limits = {
            "timeout_ms": self._limits.timeout_ms,
            "max_tool_calls": self._limits.max_tool_calls,
            "max_output_bytes": self._limits.max_output_bytes,
            "max_memory_bytes": self._limits.max_memory_bytes,
        }
        self._async = self._has_async()
        namespaces = list(self._namespaces.items())
        spec = (tools, namespaces, hooks, extensions, _GLUE)
        if gateway:
            return _codemode.Runtime.from_mcp_config(self._mcp_config, spec)
        return _codemode.Runtime(
            self._language, limits, spec, self._pause_on, self._snapshot_key
        )

    @property
    def language(self) -> str:
        """``"lua"`` or ``"javascript"``."""
        return self._runtime().language

    async def execute(self, code: str) -> Result:
        """Run ``code``; tool and hook coroutines run on the running event loop, and the guest
        runs on codemode's threads (the GIL released). Many executions may be awaited at
        once. Cancelling the awaiting task interrupts the execution: calls in flight end as
        ``interrupted`` and their ``after`` hooks run, then ``CancelledError`` propagates."""
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[str]" = loop.create_future()
        return await _awaited(future, self._running().start(code, loop, future))

    def execute_sync(self, code: str) -> Result:
        """Run ``code`` to its end and return the result (for scripts). Sync handlers run on
        codemode's threads with the GIL released while the guest runs. When a handler or hook
        is ``async def``, this runs :meth:`execute` under ``asyncio.run`` and so cannot be
        called from a running event loop (``RuntimeError``: use ``await cm.execute``)."""
        rt = self._running()
        if self._async:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return asyncio.run(self.execute(code))
            raise RuntimeError(
                "execute_sync cannot run async handlers inside a running event loop; "
                "use `await cm.execute(code)`"
            )
        return Result._from_native(rt.run(code))

    async def resume(
        self,
        snapshot: SnapshotArg,
        replies: Mapping[int, Any],
        store: Optional[Any] = None,
    ) -> Result:
        """Continue a paused execution exactly where it stopped, in this runtime or in another
        one with the same tools (another process, later); returns its Result, which may be
        paused again. ``snapshot``: a paused :class:`Result` or its ``snapshot`` bytes.
        ``replies``: one per pending call, by its id: ``"run"`` (approved: the tool runs now,
        its ``tool_before`` hook first), ``{"value": v}`` (the call returns ``v``),
        ``{"error": "message"}`` or ``{"deny": "message"}`` (the call fails with a catchable
        ``ToolFailure``; listed as ``failure`` / ``denied``). Time spent paused does not count
        against ``timeout_ms``. ``store`` (a :class:`MemoryStore`, or any object with
        ``claim(snapshot_id)``) makes the snapshot single-use: it is claimed first. Cancelling
        the awaiting task interrupts the resumed execution, as with :meth:`execute`.

        Errors: :class:`SnapshotError` when it cannot be resumed (see there; nothing ran);
        ``ValueError`` / ``TypeError`` for a reply or argument that is not one."""
        data = _snapshot_bytes(snapshot)
        pairs = _replies(replies)
        if store is not None:
            store.claim(_codemode.snapshot_id(data))
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[Any]" = loop.create_future()
        return await _awaited(future, self._running().resume_start(data, pairs, loop, future))

    def resume_sync(
        self,
        snapshot: SnapshotArg,
        replies: Mapping[int, Any],
        store: Optional[Any] = None,
    ) -> Result:
        """:meth:`resume` to its end (for scripts), as :meth:`execute_sync` runs a program."""
        rt = self._running()
        if self._async:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return asyncio.run(self.resume(snapshot, replies, store))
            raise RuntimeError(
                "resume_sync cannot run async handlers inside a running event loop; "
                "use `await cm.resume(snapshot, replies)`"
            )
        data = _snapshot_bytes(snapshot)
        pairs = _replies(replies)
        if store is not None:
            store.claim(_codemode.snapshot_id(data))
        return Result._from_native(rt.resume_run(data, pairs))

    def catalog(self, language: Optional[str] = None) -> List[Dict[str, str]]:
        """Every tool as ``{"path", "description", "signature"}``, sorted by path, signatures in
        ``language`` (default: the runtime's)."""
        return self._runtime().catalog(language)

    def instructions(self, budget: int = DEFAULT_INSTRUCTIONS_BUDGET) -> str:
        """The model-facing instructions of the execute tool (how to write a program, the
        limits, and a catalog of about ``budget`` o200k tokens)."""
        return self._runtime().instructions(budget)

    def search(
        self,
        query: Optional[str] = None,
        namespace: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> Dict[str, Any]:
        """The built-in ``search`` as a program calls it (same input checks and page shape:
        ``{"items": [{"path", "description", "signature"}], "remaining": n, "next": {"offset": n}
        or None}``), without hooks or counting.
        Errors: ``ValueError`` with the message a program would get."""
        request: Dict[str, Any] = {}
        for key, value in (
            ("query", query),
            ("namespace", namespace),
            ("limit", limit),
            ("offset", offset),
        ):
            if value is not None:
                request[key] = value
        return self._runtime().search(request)


def _tool_from_function(
    fn: Callable[..., Any],
    description: Optional[str] = None,
    output_schema: Optional[Mapping[str, Any]] = None,
) -> Tool:
    handler, input_schema, derived_output = handler_and_schemas(fn)
    doc = description if description is not None else inspect.getdoc(fn) or ""
    return Tool(
        description=doc.strip(),
        input_schema=input_schema,
        handler=handler,
        output_schema=output_schema if output_schema is not None else derived_output,
    )
