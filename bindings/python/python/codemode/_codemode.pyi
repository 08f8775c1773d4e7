"""Type stubs of the native module (see src/lib.rs); use the `codemode` package instead."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

DEFAULT_INSTRUCTIONS_BUDGET: int

_Callable = Tuple[Any, bool]

class Execution:
    def cancel(self) -> None: ...

class Runtime:
    def __init__(
        self,
        language: str,
        tools: Sequence[Tuple[str, str, Mapping[str, Any], Optional[Mapping[str, Any]], _Callable]],
        namespaces: Sequence[Tuple[str, str]],
        limits: Dict[str, Optional[int]],
        hooks: Optional[Tuple[Optional[_Callable], Optional[_Callable], Optional[_Callable], Optional[_Callable]]],
        extensions: Sequence[Tuple[str, Sequence[Tuple[str, _Callable, bool]]]],
        glue: Tuple[Any, Any, Any, Any, Any],
    ) -> None: ...
    @property
    def language(self) -> str: ...
    def run(self, code: str) -> str: ...
    def start(self, code: str, event_loop: Any, future: Any) -> Execution: ...
    def catalog(self, language: Optional[str] = None) -> List[Dict[str, str]]: ...
    def instructions(self, budget: int) -> str: ...
    def search(self, input: Any) -> Dict[str, Any]: ...
