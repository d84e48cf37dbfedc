"""BaseToolset: a group of tools resolved at request time.

Runs on: activity side.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..agents.readonly_context import ReadonlyContext
    from .base_tool import BaseTool


class BaseToolset(abc.ABC):
    @abc.abstractmethod
    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        """The tools of this set."""

    async def close(self) -> None:
        return None
