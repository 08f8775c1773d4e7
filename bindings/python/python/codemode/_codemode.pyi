"""Type stubs of the native module (see src/lib.rs); use the `codemode` package instead."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

DEFAULT_INSTRUCTIONS_BUDGET: int

_Callable = Tuple[Any, bool]

class Execution:
    def cancel(self) -> None: ...

_Spec = Tuple[
    Sequence[Tuple[str, str, Mapping[str, Any], Optional[Mapping[str, Any]], _Callable]],
    Sequence[Tuple[str, str]],
    Optional[
        Tuple[
            Optional[_Callable],
            Optional[_Callable],
            Optional[_Callable],
            Optional[_Callable],
            Optional[_Callable],
        ]
    ],
    Sequence[Tuple[str, Sequence[Tuple[str, _Callable, bool]]]],
    Tuple[Any, Any, Any, Any, Any],
]

# (wire_json, snapshot, snapshot_id, refusal): a result (its snapshot when paused) or a refused resume.
_Outcome = Tuple[Optional[str], Optional[bytes], Optional[str], Optional[str]]

class MemoryStore:
    def __init__(self) -> None: ...
    def claim(self, snapshot_id: str) -> Optional[str]: ...

def snapshot_id(bytes: bytes) -> str: ...

class Runtime:
    def __init__(
        self,
        language: str,
        limits: Dict[str, Optional[int]],
        spec: _Spec,
        pause_on: Sequence[str] = ...,
        snapshot_key: Optional[bytes] = None,
    ) -> None: ...
    @staticmethod
    def from_mcp_config(path: str, spec: _Spec) -> "Runtime": ...
    def close(self) -> None: ...
    @property
    def language(self) -> str: ...
    def check_pause_on(self) -> None: ...
    def run(self, code: str) -> _Outcome: ...
    def start(self, code: str, event_loop: Any, future: Any) -> Execution: ...
    def resume_run(self, snapshot: bytes, replies: Sequence[Tuple[int, Any]]) -> _Outcome: ...
    def resume_start(
        self, snapshot: bytes, replies: Sequence[Tuple[int, Any]], event_loop: Any, future: Any
    ) -> Execution: ...
    def catalog(self, language: Optional[str] = None) -> List[Dict[str, str]]: ...
    def instructions(self, budget: int) -> str: ...
    def search(self, input: Any) -> Dict[str, Any]: ...
