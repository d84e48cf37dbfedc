"""BaseToolset: a group of tools resolved at request time.

Runs on: activity side. The model step lists a toolset's tools while it builds
the request (as google-adk 2.13 does in its tools processor); the tool-call
activity finds the called tool in the same listing. `get_tools_with_prefix`
keeps 2.13's per-invocation cache: within one worker process, an invocation's
steps and calls list a toolset once.
"""

from __future__ import annotations

import abc
import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, Union, final, runtime_checkable

from google.genai import types

if TYPE_CHECKING:
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest
    from .base_tool import BaseTool
    from .tool_configs import ToolArgsConfig
    from .tool_context import ToolContext


@runtime_checkable
class ToolPredicate(Protocol):
    """Decides whether the model sees a tool of a toolset (google.adk's protocol)."""

    def __call__(self, tool: BaseTool, readonly_context: ReadonlyContext | None = None) -> bool:
        """True if the tool is offered to the model."""
        ...


SelfToolset = TypeVar("SelfToolset", bound="BaseToolset")


class BaseToolset(abc.ABC):
    """A collection of tools an agent can use, listed per model step."""

    activity_options: Any | None = None
    """durable-adk: Temporal activity options (timeouts, retries) for the calls of this
    toolset's tools; a listed tool's own `activity_options` wins."""

    def __init__(
        self,
        *,
        tool_filter: Union[ToolPredicate, list[str], None] = None,
        tool_name_prefix: str | None = None,
    ) -> None:
        """`tool_filter`: a predicate or tool names, for `get_tools` to apply with
        `_is_tool_selected`. `tool_name_prefix`: `get_tools_with_prefix` names each
        tool `<prefix>_<name>`."""
        self.tool_filter = tool_filter
        self.tool_name_prefix = tool_name_prefix
        self._cached_invocation_id: str | None = None
        self._cached_prefixed_tools: list[BaseTool] | None = None
        self._use_invocation_cache = True

    @abc.abstractmethod
    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        """The tools of this set (filtered with `_is_tool_selected`)."""

    @final
    async def get_tools_with_prefix(
        self, readonly_context: ReadonlyContext | None = None
    ) -> list[BaseTool]:
        """`get_tools`, each tool renamed `<tool_name_prefix>_<name>` (copies), cached
        for one invocation as in google-adk 2.13."""
        invocation_id = readonly_context.invocation_id if readonly_context else None
        if (
            self._use_invocation_cache
            and self._cached_prefixed_tools is not None
            and self._cached_invocation_id == invocation_id
        ):
            return self._cached_prefixed_tools
        tools = await self.get_tools(readonly_context)
        if self.tool_name_prefix:
            tools = [_prefixed(tool, f"{self.tool_name_prefix}_{tool.name}") for tool in tools]
        self._cached_invocation_id = invocation_id
        self._cached_prefixed_tools = tools
        return tools

    async def close(self) -> None:
        """Release what the toolset holds (connections, processes); safe to call twice."""
        return None

    @classmethod
    def from_config(
        cls: type[SelfToolset], config: ToolArgsConfig, config_abs_path: str
    ) -> SelfToolset:
        """This toolset from a YAML tool entry's `args` (a toolset class that can be
        declared in YAML overrides this)."""
        raise ValueError(f"from_config() not implemented for toolset: {cls}")

    def _is_tool_selected(self, tool: BaseTool, readonly_context: ReadonlyContext | None) -> bool:
        """Whether `tool_filter` lets the model see this tool."""
        chosen: Any = self.tool_filter
        if not chosen:
            return True
        if isinstance(chosen, ToolPredicate):
            return bool(chosen(tool, readonly_context))
        if isinstance(chosen, list):
            return tool.name in chosen
        return False

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        """Edit the outgoing request before this toolset's tools add themselves."""
        return None

    def get_auth_config(self) -> Any | None:
        """The toolset's auth config; durable-adk implements no toolset auth yet."""
        return None


def _prefixed(tool: BaseTool, name: str) -> BaseTool:
    """A shallow copy of `tool` under `name`, its declaration renamed too."""
    renamed = copy.copy(tool)
    renamed.name = name
    original: Callable[[], types.FunctionDeclaration | None] = tool._get_declaration

    def declaration() -> types.FunctionDeclaration | None:
        built = original()
        if built is not None:
            built.name = name
        return built

    renamed._get_declaration = declaration  # type: ignore[method-assign]
    return renamed
