"""BaseToolset: a group of tools resolved at request time.

Runs on: activity side.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, Union

from .._unimplemented import not_implemented

if TYPE_CHECKING:
    from ..agents.readonly_context import ReadonlyContext
    from .base_tool import BaseTool
    from .tool_configs import ToolArgsConfig

SelfToolset = TypeVar("SelfToolset", bound="BaseToolset")

ToolPredicate = Callable[..., bool]
"""(tool, readonly_context) -> whether the model sees the tool."""


class BaseToolset(abc.ABC):
    def __init__(
        self,
        *,
        tool_filter: Union[ToolPredicate, list[str], None] = None,
        tool_name_prefix: str | None = None,
    ) -> None:
        """`tool_filter`: a predicate or tool names, for `get_tools` to apply with
        `_is_tool_selected` (as in google.adk). `tool_name_prefix` is not
        implemented yet."""
        if tool_name_prefix is not None:
            raise not_implemented(
                f"{type(self).__name__}(tool_name_prefix=...)", "toolset name prefixes"
            )
        self.tool_filter = tool_filter
        self.tool_name_prefix = tool_name_prefix

    @abc.abstractmethod
    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        """The tools of this set."""

    async def close(self) -> None:
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
        if isinstance(chosen, list):
            return tool.name in chosen
        if callable(chosen):
            return bool(chosen(tool, readonly_context))
        return False
