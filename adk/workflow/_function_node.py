"""FunctionNode: a Python function as a workflow node (google.adk.workflow.FunctionNode).

Runs on: both sides (declared in user apps; the function itself runs only in an
activity). Construction is 2.13's: name and description from the function, the
context parameter, type adapters, schemas inferred from its hints. Not implemented
yet (NotImplementedError at construction): `auth_config`, `require_confirmation`
and `parameter_binding='node_input'`.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, Literal

from google.genai import types
from pydantic import BaseModel, PrivateAttr, PydanticSchemaGenerationError, TypeAdapter

from .._unimplemented import not_implemented
from ..utils.context_utils import find_context_parameter
from ._base_node import BaseNode
from ._errors import WorkflowConfigurationError
from ._retry_config import RetryConfig

_GENERATOR_ORIGINS = (collections.abc.Generator, collections.abc.AsyncGenerator)


def _passthrough_output_types() -> tuple[type, ...]:
    """Return types that are not an output schema: they are events, not data."""
    from ..events.event import Event
    from ..events.request_input import RequestInput

    return (types.Content, Event, RequestInput)


def _unwrapped(func: Callable[..., Any]) -> Any:
    """The function under partials, bound methods and callable objects (2.13's
    `unwrap_callable`)."""
    seen: set[int] = set()
    while id(func) not in seen:
        seen.add(id(func))
        if isinstance(func, functools.partial):
            func = func.func
        elif hasattr(func, "__func__"):
            func = func.__func__
        elif callable(func) and not inspect.isroutine(func) and not isinstance(func, type):
            call = getattr(func, "__call__", None)  # noqa: B004 (a callable object's method)
            if call is None or call is func:
                break
            func = call
        else:
            break
    return func


def _doc(func: Callable[..., Any]) -> str:
    doc = inspect.getdoc(func) or ""
    if isinstance(func, functools.partial) and doc == inspect.getdoc(functools.partial):
        return _doc(func.func)
    default_call = inspect.getdoc(type.__call__)
    if not doc and not inspect.isroutine(func) and not isinstance(func, type):
        call = getattr(func, "__call__", None)  # noqa: B004
        call_doc = inspect.getdoc(call) if call is not None else None
        if call_doc and call_doc != default_call:
            doc = call_doc
    return "" if doc == default_call else doc


def _type_hints(func: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(_unwrapped(func))
    except (TypeError, AttributeError, NameError):
        return {}


class FunctionNode(BaseNode):
    """A sync or async function, or generator, as a node."""

    auth_config: Any = None
    """2.13: requests user authentication before running (not implemented here)."""
    require_confirmation: bool | Callable[..., bool] = False
    """2.13: asks the user to confirm before running (not implemented here)."""
    parameter_binding: Literal["state", "node_input"] = "state"
    """'state': parameters other than the context and `node_input` are read from
    state; 'node_input': from the input dict (not implemented here)."""

    _func: Callable[..., Any] = PrivateAttr()
    _unwrapped_func: Any = PrivateAttr(default=None)
    """The function under partials, bound methods and callable objects: what tells a
    generator or coroutine function apart."""
    _sig: inspect.Signature = PrivateAttr()
    _type_hints: dict[str, Any] = PrivateAttr()
    _type_adapters: dict[str, TypeAdapter[Any]] = PrivateAttr()
    _context_param_name: str = PrivateAttr(default="ctx")

    def __init__(
        self,
        *,
        func: Callable[..., Any],
        name: str | None = None,
        rerun_on_resume: bool = False,
        retry_config: RetryConfig | None = None,
        timeout: float | None = None,
        auth_config: Any = None,
        require_confirmation: bool | Callable[..., bool] = False,
        parameter_binding: Literal["state", "node_input"] = "state",
        state_schema: type[BaseModel] | None = None,
    ) -> None:
        if not callable(func):
            raise WorkflowConfigurationError("Function must be callable.")
        if require_confirmation and not rerun_on_resume:
            raise WorkflowConfigurationError(
                "FunctionNode with require_confirmation requires rerun_on_resume=True."
                " The node must rerun after confirmation is provided."
            )
        if auth_config and not rerun_on_resume:
            raise WorkflowConfigurationError(
                "FunctionNode with auth_config requires rerun_on_resume=True."
                " The node must rerun after credentials are provided."
            )
        inferred = (
            name or getattr(func, "__name__", None) or getattr(_unwrapped(func), "__name__", None)
        )
        if not inferred:
            raise WorkflowConfigurationError(
                "FunctionNode must have a name. If the wrapped callable does not"
                " have a '__name__' attribute, please provide a name explicitly."
            )
        if auth_config is not None:
            raise not_implemented("FunctionNode(auth_config=...)", "node authentication")
        if require_confirmation:
            raise not_implemented("FunctionNode(require_confirmation=...)", "node confirmations")
        if parameter_binding == "node_input":
            raise not_implemented(
                "FunctionNode(parameter_binding='node_input')",
                "node_input parameter binding (nodes as agent tools)",
            )
        super().__init__(
            name=inferred,
            description=_doc(func),
            rerun_on_resume=rerun_on_resume,
            retry_config=retry_config,
            timeout=timeout,
            auth_config=auth_config,
            require_confirmation=require_confirmation,
            parameter_binding=parameter_binding,
            state_schema=state_schema,
        )
        hints = _type_hints(func)
        self._context_param_name = find_context_parameter(func) or "ctx"
        self._func = func
        self._unwrapped_func = _unwrapped(func)
        self._sig = inspect.signature(func)
        self._type_hints = hints
        self._type_adapters = {}
        for param, hint in hints.items():
            if param in ("return", self._context_param_name):
                continue
            try:
                self._type_adapters[param] = TypeAdapter(hint)
            except (TypeError, PydanticSchemaGenerationError):
                pass
        self._infer_schemas(hints)

    def _infer_schemas(self, hints: dict[str, Any]) -> None:
        """State binding: output_schema from the return (or yield) hint, input_schema
        from `node_input`'s, when they are pydantic models (not Content/Event/RequestInput)."""
        schema = hints.get("return")
        if schema is not None and typing.get_origin(schema) in _GENERATOR_ORIGINS:
            args = typing.get_args(schema)
            schema = args[0] if args else None
        if (
            inspect.isclass(schema)
            and issubclass(schema, BaseModel)
            and not issubclass(schema, _passthrough_output_types())
        ):
            self.output_schema = schema
        input_hint = hints.get("node_input")
        if inspect.isclass(input_hint) and issubclass(input_hint, BaseModel):
            self.input_schema = input_hint
