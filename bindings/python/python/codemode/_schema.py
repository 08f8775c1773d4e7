"""Input and output JSON Schemas from a function's type hints (``CodeMode.tool``).

With pydantic (2.x) installed, pydantic builds the schemas and validates the input; without it,
a small mapping of plain annotations does (``str``, ``int``, ``float``, ``bool``, ``list``,
``dict``, ``Optional``, ``List``, ``Dict``, ``Any``).
"""

from __future__ import annotations

import functools
import inspect
import typing
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

try:
    from typing_extensions import is_typeddict
except ImportError:  # typing_extensions comes with pydantic; without it only typing's TypedDict
    from typing import is_typeddict

try:  # pragma: no cover - exercised by both test runs
    import pydantic
except ImportError:  # pragma: no cover
    pydantic = None  # type: ignore[assignment]

Handler = Callable[[Any], Any]

_PLAIN = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


def _plain_schema(ann: Any, where: str) -> Dict[str, Any]:
    """A JSON Schema for a plain annotation, without pydantic."""
    if ann is inspect.Parameter.empty or ann is Any:
        return {}
    if ann is type(None):
        return {"type": "null"}
    if ann in _PLAIN:
        return {"type": _PLAIN[ann]}
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin is typing.Union or type(ann).__name__ == "UnionType":
        return {"anyOf": [_plain_schema(a, where) for a in args]}
    if origin in (list, tuple, set, frozenset):
        s: Dict[str, Any] = {"type": "array"}
        if args and args[-1] is not Ellipsis:
            s["items"] = _plain_schema(args[0], where)
        return s
    if origin is dict:
        s = {"type": "object"}
        if len(args) == 2:
            s["additionalProperties"] = _plain_schema(args[1], where)
        return s
    if is_typeddict(ann):
        hints = typing.get_type_hints(ann)
        required = sorted(getattr(ann, "__required_keys__", hints.keys()))
        return {
            "type": "object",
            "properties": {k: _plain_schema(v, where) for k, v in hints.items()},
            "required": required,
        }
    raise TypeError(
        f"{where}: cannot derive a JSON Schema from the annotation {ann!r} without pydantic; "
        "install pydantic, use str/int/float/bool/list/dict, or pass a Tool with input_schema"
    )


def _is_model(ann: Any) -> bool:
    return pydantic is not None and isinstance(ann, type) and issubclass(ann, pydantic.BaseModel)


def _whole_input(ann: Any) -> bool:
    """One parameter that is the whole input: a pydantic model or a TypedDict."""
    return _is_model(ann) or (isinstance(ann, type) and is_typeddict(ann))


def _wrap(fn: Callable[..., Any], adapt: Callable[[Any], Tuple[tuple, dict]]) -> Handler:
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def call_async(input: Any) -> Any:
            args, kwargs = adapt(input)
            return await fn(*args, **kwargs)

        return call_async

    @functools.wraps(fn)
    def call(input: Any) -> Any:
        args, kwargs = adapt(input)
        return fn(*args, **kwargs)

    return call


def _invalid(e: Exception) -> Exception:
    from . import ToolError

    return ToolError(f"Invalid input: {e}")


def handler_and_schemas(
    fn: Callable[..., Any],
) -> Tuple[Handler, Mapping[str, Any], Optional[Mapping[str, Any]]]:
    """``(handler(input), input_schema, output_schema or None)`` for ``fn``."""
    where = f"tool function {getattr(fn, '__qualname__', fn)!r}"
    sig = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # unresolvable forward references: fall back to raw annotations
        hints = {}
    params = [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    anns = {p.name: hints.get(p.name, p.annotation) for p in params}
    ret = hints.get("return", sig.return_annotation)

    output_schema: Optional[Dict[str, Any]] = None
    if pydantic is not None and ret not in (inspect.Signature.empty, Any, None, type(None)):
        output_schema = pydantic.TypeAdapter(ret).json_schema(mode="serialization")

    if len(params) == 1 and _whole_input(anns[params[0].name]):
        ann = anns[params[0].name]
        adapter = None
        if pydantic is not None:
            try:
                adapter = pydantic.TypeAdapter(ann)
            except pydantic.PydanticUserError:
                # pydantic refuses `typing.TypedDict` before Python 3.12: the plain schema then.
                adapter = None
        if adapter is not None:
            schema = adapter.json_schema()

            def adapt(input: Any) -> Tuple[tuple, dict]:
                try:
                    return (adapter.validate_python(input),), {}
                except pydantic.ValidationError as e:
                    raise _invalid(e) from e

        else:
            schema = _plain_schema(ann, where)

            def adapt(input: Any) -> Tuple[tuple, dict]:
                return (input,), {}

        return _wrap(fn, adapt), schema, output_schema

    if pydantic is not None:
        fields = {
            p.name: (
                Any if anns[p.name] is inspect.Parameter.empty else anns[p.name],
                ... if p.default is inspect.Parameter.empty else p.default,
            )
            for p in params
        }
        model = pydantic.create_model(getattr(fn, "__name__", "Input"), **fields)  # type: ignore[call-overload]
        schema = model.model_json_schema()

        def adapt(input: Any) -> Tuple[tuple, dict]:
            try:
                m = model.model_validate(input)
            except pydantic.ValidationError as e:
                raise _invalid(e) from e
            return (), {name: getattr(m, name) for name in fields}

        return _wrap(fn, adapt), schema, output_schema

    props = {p.name: _plain_schema(anns[p.name], where) for p in params}
    schema = {"type": "object", "properties": props}
    required = [p.name for p in params if p.default is inspect.Parameter.empty]
    if required:
        schema["required"] = required
    names = set(props)

    def adapt(input: Any) -> Tuple[tuple, dict]:
        return (), {k: v for k, v in (input or {}).items() if k in names}

    return _wrap(fn, adapt), schema, output_schema
