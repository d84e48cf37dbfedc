"""BaseTool: the interface every tool implements.

Runs on: activity side (tools run in the tool-call activity; declarations are
built in the model-step activity).
"""

from __future__ import annotations

import abc
import collections.abc
import inspect
import logging
import typing
from typing import TYPE_CHECKING, Any, TypeVar

from google.genai import types

from .._unimplemented import not_implemented

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_configs import ToolArgsConfig
    from .tool_context import ToolContext

logger = logging.getLogger("adk." + __name__)
SelfTool = TypeVar("SelfTool", bound="BaseTool")


class BaseTool(abc.ABC):
    """A tool the model can call."""

    name: str
    description: str
    is_long_running: bool = False
    """The call returns at once; the final result arrives later."""
    activity_options: Any | None = None
    """durable-adk: Temporal activity options for this tool's calls (timeouts, retries)."""

    def __init__(
        self,
        *,
        name: str,
        description: str,
        is_long_running: bool = False,
        custom_metadata: dict[str, Any] | None = None,
        behavior: types.Behavior | None = None,
        response_scheduling: types.FunctionResponseScheduling | None = None,
    ) -> None:
        # behavior and response_scheduling steer non-blocking calls in live runs
        for setting, value in (
            ("behavior", behavior),
            ("response_scheduling", response_scheduling),
        ):
            if value is not None:
                raise not_implemented(f"{type(self).__name__}({setting}=...)", "live (bidi) runs")
        self.name = name
        self.description = description
        self.is_long_running = is_long_running
        self.custom_metadata = custom_metadata
        self.behavior = behavior
        self.response_scheduling = response_scheduling

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        """The declaration sent to the model; None for tools the model does not call."""
        return None

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        raise NotImplementedError(f"{type(self).__name__} is not implemented")

    async def check_require_confirmation(
        self, args: dict[str, Any], tool_context: ToolContext
    ) -> bool:
        """Whether this call needs a human's approval before it runs."""
        return False

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        """Add this tool to the request (its declaration and dispatch entry)."""
        llm_request.append_tools([self])

    @classmethod
    def from_config(cls: type[SelfTool], config: ToolArgsConfig, config_abs_path: str) -> SelfTool:
        """This tool from a YAML tool entry's `args` (Agent Config), as google-adk 2.13
        maps them: each constructor parameter the args name, by its type hint (a
        primitive as written, a pydantic model validated, a callable by its fully
        qualified name, lists of those). A tool class may override this."""
        values = config.model_dump()
        hints = typing.get_type_hints(cls.__init__)
        kwargs: dict[str, Any] = {}
        for name in inspect.signature(cls.__init__).parameters:
            if name == "self" or name not in values:
                continue
            converted = _from_config_value(_unwrap_optional(hints.get(name)), values[name])
            if converted is _UNSUPPORTED:
                logger.warning("Unsupported parsing for argument: %s.", name)
            else:
                kwargs[name] = converted
        return cls(**kwargs)


_UNSUPPORTED = object()


def _unwrap_optional(hint: Any) -> Any:
    members = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Union and len(members) == 2 and type(None) in members:
        return members[0] if members[1] is type(None) else members[1]
    return hint


def _is_callable_hint(hint: Any) -> bool:
    return hint is typing.Callable or typing.get_origin(hint) is collections.abc.Callable


def _from_config_value(hint: Any, value: Any) -> Any:
    from pydantic import BaseModel

    from ..agents.config_agent_utils import resolve_fully_qualified_name

    if hint in (int, str, bool, float):
        return value
    if inspect.isclass(hint) and issubclass(hint, BaseModel) and value is not None:
        return hint.model_validate(value)
    if _is_callable_hint(hint):
        return resolve_fully_qualified_name(value)
    if hint in (list, set, dict):
        return hint(value)
    if typing.get_origin(hint) is list:
        item = typing.get_args(hint)[0]
        if inspect.isclass(item) and issubclass(item, BaseModel):
            return [item.model_validate(v) for v in value]
        if item in (int, str, bool, float):
            return value
        if _is_callable_hint(item):
            return [resolve_fully_qualified_name(v) for v in value]
    return _UNSUPPORTED
