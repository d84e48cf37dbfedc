"""LongRunningFunctionTool: a FunctionTool whose call returns at once, the result later.

Runs on: activity side (worker process).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from google.genai import types

from .function_tool import FunctionTool

_NOTE = (
    "NOTE: This is a long-running operation. Do not call this tool again if it has"
    " already returned some intermediate or pending status."
)


class LongRunningFunctionTool(FunctionTool):
    """A function tool that starts an operation and reports its final result later.

    The model is told (in the declaration only) not to call it again while pending.
    """

    def __init__(self, func: Callable[..., Any], *, deadline: timedelta | None = None) -> None:
        """`deadline` (durable-adk): how long the invocation waits for the final result
        before the model gets an error result instead (None: wait indefinitely)."""
        super().__init__(func)
        self.is_long_running = True
        self.deadline = deadline

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        declaration = super()._get_declaration()
        if declaration is None:
            return None
        if declaration.description:
            declaration.description += "\n\n" + _NOTE
        else:
            declaration.description = _NOTE
        return declaration
