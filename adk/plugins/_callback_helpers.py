"""What the observability plugins (LoggingPlugin, DebugLoggingPlugin) agree on:
google.adk 2.13's rules for a tool result that reports a failure, a tool error
recorded once, and a node error that is not a model termination.

Runs on: activity side (inside plugin hooks, in the worker process).

- A tool result is a tool error when it is a ReflectAndRetryToolPlugin answer,
  when the plugin's `tool_result_classifier` says so, or when its top-level
  `isError` / `is_error` is exactly True (an MCP CallToolResult, or its dump).
- A call whose failure a plugin's on_tool_error_callback recorded is not recorded
  again by its after_tool_callback when a later plugin's answer to that failure
  arrives there as the call's result.
- An event's error_code that is a model finish or block reason is the model
  stopping, not a node failing.

The checks read only the few fields they need and never call the result's own
methods (a hostile result cannot raise into a hook, or leak into a log).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import sys
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from google.genai import types

from .reflect_retry_tool_plugin import REFLECT_AND_RETRY_RESPONSE_TYPE

if TYPE_CHECKING:
    from ..events.event import Event
    from ..tools.base_tool import BaseTool
    from ..tools.tool_context import ToolContext

logger = logging.getLogger("google_adk.google.adk.plugins._callback_helpers")

_MODEL_STOP_CODES = frozenset(
    reason.value for kind in (types.FinishReason, types.BlockedReason) for reason in kind
)
_MCP_ERROR = "Tool returned an MCP result with isError=true."
_RETRY_ANSWER_ERROR = "Tool raised an error that ReflectAndRetryToolPlugin handled."
_CLASSIFIED_ERROR = "tool_result_classifier classified the tool result as an error."
_READ_FIELDS = frozenset({"response_type", "error_details", "error_type", "isError", "is_error"})


def _is_durable_node_error(event: Event) -> bool:
    """A final event whose error_code is not a model finish or block reason."""
    return (
        event.partial is not True
        and bool(event.error_code)
        and event.error_code not in _MODEL_STOP_CODES
    )


def _is_a(value: Any, cls: type[Any]) -> bool:
    """isinstance by the value's real type (no `__class__` of its own consulted)."""
    return type.__subclasscheck__(cls, type(value))


def _plain_str(value: Any) -> str | None:
    return str.__str__(value) if _is_a(value, str) else None


def _mcp_fields(result: Any) -> dict[str, Any] | None:
    """The fields of an MCP CallToolResult model, if mcp is imported and it is one."""
    for module_name in ("mcp.types", "mcp_types"):
        cls = getattr(sys.modules.get(module_name), "CallToolResult", None)
        if isinstance(cls, type) and _is_a(result, cls):
            fields = object.__getattribute__(result, "__dict__")
            return fields if type(fields) is dict else None
    return None


def _fields(result: Any) -> dict[str, Any]:
    entries = result if _is_a(result, dict) else _mcp_fields(result)
    if entries is None:
        return {}
    return {k: v for k, v in dict.items(entries) if type(k) is str and k in _READ_FIELDS}


def _retry_answer(fields: dict[str, Any]) -> str | None:
    if _plain_str(fields.get("response_type")) != REFLECT_AND_RETRY_RESPONSE_TYPE:
        return None
    for key in ("error_details", "error_type"):
        if message := _plain_str(fields.get(key)):
            return message
    return _RETRY_ANSWER_ERROR


def _mcp_error(fields: dict[str, Any]) -> str | None:
    if fields.get("isError") is True or fields.get("is_error") is True:
        return _MCP_ERROR
    return None


def _apply(rule: Any, fields: dict[str, Any], log: logging.Logger) -> str | None:
    try:
        return rule(fields)  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001 (2.13: a failing rule is skipped)
        pass
    log.warning("Built-in tool result rule %s failed; skipping it.", rule.__name__)
    return None


@dataclass(frozen=True)
class ToolResultClassification:
    """A `tool_result_classifier`'s verdict: "ERROR" (with a message) or "OK"."""

    status: Literal["OK", "ERROR"]
    error_message: str | None = None

    def __post_init__(self) -> None:
        if _plain_str(self.status) not in ("OK", "ERROR"):
            raise ValueError("status must be 'OK' or 'ERROR'.")
        if self.error_message is not None and not _is_a(self.error_message, str):
            raise ValueError("error_message must be a str or None.")


class ToolResultClassifier(Protocol):
    """Called by keyword with after_tool_callback's arguments; synchronous."""

    def __call__(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        result: Any,
    ) -> ToolResultClassification | None: ...


def _verdict_message(verdict: Any) -> str | None:
    if not isinstance(verdict, ToolResultClassification):
        raise TypeError("tool_result_classifier returned an unsupported value.")
    status = _plain_str(verdict.status)
    if status == "OK":
        return None
    if status != "ERROR":
        raise ValueError("ToolResultClassification.status is not OK or ERROR.")
    if verdict.error_message is None:
        return _CLASSIFIED_ERROR
    text = _plain_str(verdict.error_message)
    if text is None:
        raise TypeError("ToolResultClassification.error_message is not a str.")
    return text or _CLASSIFIED_ERROR


def _release(awaitable: Any) -> None:
    """Close a coroutine (or cancel a future) a classifier returned by mistake."""
    if inspect.iscoroutine(awaitable) or inspect.isgenerator(awaitable):
        awaitable.close()
    elif asyncio.isfuture(awaitable):

        def retrieve(future: Any) -> None:
            if not future.cancelled():
                future.exception()

        if awaitable.done():
            retrieve(awaitable)
        else:
            awaitable.add_done_callback(retrieve)
            awaitable.cancel()


def _validate_tool_result_classifier(classifier: Any) -> None:
    """google.adk 2.13's checks, with its messages: callable, synchronous, and able to
    take tool, tool_args, tool_context and result by keyword."""
    if classifier is None:
        return
    if not callable(classifier):
        raise ValueError(
            f"tool_result_classifier must be callable, got {type(classifier).__name__}."
        )
    inner = classifier
    while isinstance(inner, functools.partial):
        inner = inner.func
    calls = (getattr(classifier, "__call__", None), getattr(inner, "__call__", None))  # noqa: B004
    candidates = (classifier, *calls)
    if any(inspect.iscoroutinefunction(f) or inspect.isasyncgenfunction(f) for f in candidates):
        raise ValueError(
            "tool_result_classifier must be synchronous; after_tool_callback"
            " calls it without awaiting or iterating the result."
        )
    try:
        signature = inspect.signature(classifier)
    except Exception as e:
        raise ValueError(
            "tool_result_classifier must have a signature that inspect can read,"
            " so that the plugin can check it takes the keyword arguments tool,"
            " tool_args, tool_context and result. Wrap it in a function that"
            " does."
        ) from e
    try:
        signature.bind(tool=None, tool_args=None, tool_context=None, result=None)
    except TypeError as e:
        raise ValueError(
            "tool_result_classifier must accept the keyword arguments tool,"
            " tool_args, tool_context and result."
        ) from e


def _classify_tool_result_error(
    *,
    tool: BaseTool,
    tool_args: dict[str, Any],
    tool_context: ToolContext,
    result: Any,
    tool_result_classifier: ToolResultClassifier | None = None,
    log: logging.Logger = logger,
) -> str | None:
    """The error message for a result that reports a failure, else None (2.13's order:
    a retry answer, the classifier, the MCP flag)."""
    fields = _fields(result)
    if (message := _apply(_retry_answer, fields, log)) is not None:
        return message
    if tool_result_classifier is not None:
        failed = False
        try:
            verdict = tool_result_classifier(
                tool=tool, tool_args=tool_args, tool_context=tool_context, result=result
            )
            if inspect.isawaitable(verdict):
                _release(verdict)
                log.warning(
                    "tool_result_classifier returned an awaitable for tool %s; it"
                    " must be synchronous. Applying the built-in rule instead.",
                    tool.name,
                )
            elif verdict is not None:
                return _verdict_message(verdict)
        except Exception:  # noqa: BLE001 (2.13: logged below, naming only the tool)
            failed = True
        if failed:
            log.warning(
                "tool_result_classifier failed or returned an unusable verdict for"
                " tool %s; applying the built-in rule instead.",
                tool.name,
            )
    return _apply(_mcp_error, fields, log)


# For each plugin (by id), the tool call whose failure its on_tool_error_callback
# recorded last: its after_tool_callback skips that call's answer from a later plugin.
# Both hooks run in the tool call's activity, in its task: a context variable keeps
# parallel calls (their own activities, their own tasks) apart. The mapping is
# replaced, never changed in place, so no other task sees a change.
_recorded: contextvars.ContextVar[Mapping[int, weakref.ref[object]]] = contextvars.ContextVar(
    "_adk_tool_errors_recorded", default=MappingProxyType({})
)


def _mark_tool_error_recorded(plugin: object, tool_context: object) -> None:
    try:
        call = weakref.ref(tool_context)
    except TypeError:  # no weak reference: the answer may be recorded again (as 2.13)
        return
    _recorded.set({**_recorded.get(), id(plugin): call})


def _pop_tool_error_recorded(plugin: object, tool_context: object) -> bool:
    marked = _recorded.get()
    call = marked.get(id(plugin))
    if call is None or call() is not tool_context:
        return False
    _recorded.set({k: v for k, v in marked.items() if k != id(plugin)})
    return True
