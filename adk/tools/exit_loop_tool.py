"""exit_loop: the tool an agent inside a LoopAgent calls to end the loop.

Runs on: activity side (worker process). The docstring is the declaration's
description: google-adk 2.13's text.
"""

from __future__ import annotations

from .tool_context import ToolContext


def exit_loop(tool_context: ToolContext) -> None:
    """Exits the loop.

    Call this function only when you are instructed to do so.
    """
    tool_context.actions.escalate = True
    tool_context.actions.skip_summarization = True
