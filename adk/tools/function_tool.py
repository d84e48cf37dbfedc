"""FunctionTool: wraps a plain Python callable as a tool the model can call.

Runs on: activity side (worker process). Sync functions run in a worker thread
(`asyncio.to_thread`) so they never block the activity worker's event loop.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import types as pytypes
import typing
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, Union

import pydantic
from google.genai import types

from ..agents.callback_context import CallbackContext
from ..utils.variant_utils import (
    GoogleLLMVariant,
    get_google_llm_variant,
    sanitize_json_schema_for_vertex,
)
from .base_tool import BaseTool
from .tool_context import ToolContext

logger = logging.getLogger(__name__)

_CONFIRMATION_HINT = (
    "Please approve or reject the tool call {name}() by responding with a"
    " FunctionResponse with an expected ToolConfirmation payload."
)
_PENDING_ERROR = "This tool call requires confirmation, please approve or reject."
_REJECTED_ERROR = "This tool call is rejected."
_FIELD_KINDS = (
    inspect.Parameter.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.KEYWORD_ONLY,
)


def _callable_name(func: Any) -> str:
    # google-adk 2.13: a partial without a name of its own is named after what it wraps
    if isinstance(func, functools.partial) and not hasattr(func, "__name__"):
        return _callable_name(func.func)
    return str(getattr(func, "__name__", None) or type(func).__name__)


def _callable_doc(func: Any) -> str:
    doc = inspect.getdoc(func) or ""
    if isinstance(func, functools.partial) and doc == inspect.getdoc(functools.partial):
        return _callable_doc(func.func)  # the wrapped function's doc, as google-adk 2.13
    if not doc and not inspect.isroutine(func) and not inspect.isclass(func):
        doc = inspect.getdoc(type(func).__call__) or ""
    return "" if doc == inspect.getdoc(type.__call__) else doc


def _unwrap_callable(func: Any) -> Any:
    """The function behind a partial, bound method or callable instance."""
    while True:
        if isinstance(func, functools.partial):
            func = func.func
        elif inspect.ismethod(func):
            func = func.__func__
        elif not inspect.isroutine(func) and not inspect.isclass(func) and callable(func):
            func = type(func).__call__
        else:
            return func


def _type_hints(func: Any, *, strict: bool) -> dict[str, Any]:
    """Resolved annotations of `func`; if strict, unresolvable forward refs raise NameError."""
    try:
        return typing.get_type_hints(_unwrap_callable(func))
    except TypeError:
        return {}
    except Exception:
        if strict:
            raise
        return {}  # callers fall back to the raw annotations


def _union_members(ann: Any) -> tuple[Any, ...]:
    is_union = typing.get_origin(ann) in (Union, pytypes.UnionType)
    return typing.get_args(ann) if is_union else ()


def _strip_optional(ann: Any) -> Any:
    rest = [m for m in _union_members(ann) if m is not type(None)]
    return rest[0] if len(rest) == 1 else ann


def _is_model(ann: Any) -> bool:
    return inspect.isclass(ann) and issubclass(ann, pydantic.BaseModel)


def _is_context(ann: Any) -> bool:
    members = _union_members(ann) or (ann,)
    return any(inspect.isclass(m) and issubclass(m, CallbackContext) for m in members)


def _to_int(value: Any, name: str) -> Any:
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        logger.warning("Parameter %r expects an int but got non-integral %r", name, value)
    return value


def _to_model(ann: Any, models: tuple[type, ...], value: Any, name: str) -> Any:
    """Validate `value` as `ann` (a model or a union of models); keep it raw on failure."""
    if value is None or isinstance(value, models):
        return value
    try:
        return pydantic.TypeAdapter(ann).validate_python(value)
    except pydantic.ValidationError as e:
        logger.warning("Failed to convert parameter %r to %s: %s", name, ann, e)
        return value


def _convert_arg(ann: Any, value: Any, name: str) -> Any:
    """Undo JSON/proto round-trips: models from dicts, ints from integral floats."""
    ann = _strip_optional(ann)
    members = tuple(m for m in _union_members(ann) if m is not type(None))
    if len(members) >= 2 and all(_is_model(m) for m in members):
        return _to_model(ann, members, value, name)
    if ann is int:
        return _to_int(value, name)
    if _is_model(ann):
        return _to_model(ann, (ann,), value, name)
    if typing.get_origin(ann) is list and isinstance(value, list):
        (item,) = typing.get_args(ann) or (Any,)
        if item is int:
            return [_to_int(v, name) for v in value]
        if _is_model(item):
            return [_to_model(item, (item,), v, name) if isinstance(v, dict) else v for v in value]
    return value


class FunctionTool(BaseTool):
    """A tool backed by a Python function; the declaration comes from its signature."""

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        require_confirmation: bool | Callable[..., bool | Awaitable[bool]] = False,
    ) -> None:
        """Wrap `func`.

        Args:
          func: The function (sync or async) the tool calls.
          require_confirmation: A boolean or a callable that takes the function's
            arguments and returns a boolean. If the callable returns True, the tool
            will require confirmation from the user.
        """
        if not callable(func):
            raise TypeError(f"Expected a callable object, got {type(func).__name__}")
        super().__init__(name=_callable_name(func), description=_callable_doc(func))
        self.func = func
        self._require_confirmation = require_confirmation
        try:
            self._signature: inspect.Signature | None = inspect.signature(func)
        except (TypeError, ValueError):
            self._signature = None
        self._hints = _type_hints(func, strict=False)
        self._context_param = self._find_context_param()
        self._ignore_params = [self._context_param, "input_stream"]
        self._declarations: dict[GoogleLLMVariant, types.FunctionDeclaration] = {}

    def _annotation(self, param: inspect.Parameter) -> Any:
        return self._hints.get(param.name, param.annotation)

    def _find_context_param(self) -> str:
        params = self._signature.parameters.values() if self._signature else ()
        for param in params:
            if _is_context(self._annotation(param)):
                return param.name
        return "tool_context"

    @property
    def takes_context(self) -> bool:
        """Whether the function declares a ToolContext parameter (durable-adk)."""
        return self._signature is not None and self._context_param in self._signature.parameters

    @property
    def may_ask_confirmation(self) -> bool:
        """Whether a call may need a human's confirmation (durable-adk)."""
        return bool(self._require_confirmation)

    # Declaration ---------------------------------------------------------

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        if self.func is None:
            return None
        variant = get_google_llm_variant()
        if variant not in self._declarations:
            self._declarations[variant] = self._build_declaration(variant)
        return self._declarations[variant].model_copy(deep=True)

    def _build_declaration(
        self, variant: GoogleLLMVariant = GoogleLLMVariant.GEMINI_API
    ) -> types.FunctionDeclaration:
        """google-adk 2.13's: Vertex AI also gets the return type's schema, Optionals flattened."""
        declaration = types.FunctionDeclaration(
            name=_callable_name(self.func),
            description=_callable_doc(self.func) or None,
            parameters_json_schema=self._parameters_json_schema(),
        )
        if variant is GoogleLLMVariant.VERTEX_AI:
            declaration.parameters_json_schema = sanitize_json_schema_for_vertex(
                declaration.parameters_json_schema
            )
            response = self._response_json_schema()
            if response:
                declaration.response_json_schema = sanitize_json_schema_for_vertex(response)
        return declaration

    def _response_json_schema(self) -> dict[str, Any] | None:
        """The JSON schema of the return annotation (None: unannotated or not expressible)."""
        if self._signature is None or self._signature.return_annotation is inspect.Signature.empty:
            return None
        annotation = self._hints.get("return", self._signature.return_annotation)
        if isinstance(annotation, str):
            return None  # an unresolvable forward reference
        try:
            adapter: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(
                annotation, config=pydantic.ConfigDict(arbitrary_types_allowed=True)
            )
        except pydantic.PydanticUserError:
            adapter = pydantic.TypeAdapter(annotation)  # e.g. dataclasses refuse a config
        try:
            return adapter.json_schema()
        except Exception:
            logger.warning("Failed to build response JSON schema for %s", _callable_name(self.func))
            return None

    def _parameters_json_schema(self) -> dict[str, Any] | None:
        hints = _type_hints(self.func, strict=True)
        params = self._signature.parameters.values() if self._signature else ()
        fields: dict[str, Any] = {}
        for param in params:
            if param.kind not in _FIELD_KINDS or param.name in self._ignore_params:
                continue
            raw = param.annotation
            ann = hints.get(param.name, Any if raw is inspect.Parameter.empty else raw)
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[param.name] = (ann, default)
        if not fields:
            return None
        with warnings.catch_warnings():  # e.g. a parameter named like a BaseModel attribute
            warnings.simplefilter("ignore")
            model = pydantic.create_model(f"{_callable_name(self.func)}Params", **fields)
        return model.model_json_schema()

    # Calling ---------------------------------------------------------------

    def _preprocess_args(self, args: dict[str, Any]) -> dict[str, Any]:
        processed = dict(args)
        params = self._signature.parameters if self._signature else {}
        for key, value in args.items():
            param = params.get(key)
            if param is None:
                continue
            ann = self._annotation(param)
            if ann is not inspect.Parameter.empty:
                processed[key] = _convert_arg(ann, value, key)
        return processed

    def _prepare_invocation_args(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any]:
        """Inject the context and keep only the function's own (non-variadic) parameters."""
        if self._signature is None:
            logger.warning("Tool %s has no introspectable signature; passing args as is", self.name)
            return dict(args)
        params = self._signature.parameters
        prepared = dict(args)
        if self._context_param in params:
            prepared[self._context_param] = tool_context
        return {k: v for k, v in prepared.items() if k in params and params[k].kind in _FIELD_KINDS}

    def _missing_mandatory_args(self, args: dict[str, Any]) -> list[str]:
        params = self._signature.parameters.values() if self._signature else ()
        mandatory = [p.name for p in params if p.kind in _FIELD_KINDS and p.default is p.empty]
        return [n for n in mandatory if n not in self._ignore_params and n not in args]

    async def _call(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        """Await async callables; run sync ones in a worker thread (contextvars copied)."""
        if inspect.iscoroutinefunction(_unwrap_callable(func)):
            return await func(**kwargs)
        result = await asyncio.to_thread(func, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result

    async def check_require_confirmation(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> bool:
        predicate = self._require_confirmation
        if not callable(predicate):
            return bool(predicate)
        kwargs = self._prepare_invocation_args(self._preprocess_args(args), tool_context)
        return bool(await self._call(predicate, kwargs))

    def _confirmation_error(self, tool_context: ToolContext) -> dict[str, str] | None:
        """The error to return instead of calling the function, if any."""
        if not tool_context.tool_confirmation:
            tool_context.request_confirmation(hint=_CONFIRMATION_HINT.format(name=self.name))
            tool_context.actions.skip_summarization = True
            return {"error": _PENDING_ERROR}
        if not tool_context.tool_confirmation.confirmed:
            return {"error": _REJECTED_ERROR}
        return None

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        kwargs = self._prepare_invocation_args(self._preprocess_args(args), tool_context)
        missing = self._missing_mandatory_args(kwargs)
        if missing:
            missing_lines = "\n".join(missing)
            return {
                "error": f"Invoking `{self.name}()` failed as the following mandatory input"
                f" parameters are not present:\n{missing_lines}\nYou could retry calling this"
                " tool, but it is IMPORTANT for you to provide all the mandatory parameters."
            }
        if await self.check_require_confirmation(args, tool_context):
            error = self._confirmation_error(tool_context)
            if error is not None:
                return error
        try:
            return await self._call(self.func, kwargs)
        except TypeError as e:
            if self._signature is not None:
                raise
            return {
                "error": f"Invoking `{self.name}()` failed: {e}. You could retry calling"
                " this tool with valid parameters."
            }
