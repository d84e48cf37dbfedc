"""get_user_choice: a long-running tool asking the user to pick one of some options,
as google-adk 2.13 ships it.

Runs on: activity side (the tool-call activity). The call waits durably for the
user's choice, which arrives as the call's final response (README, *Human in the
loop*).
"""

from __future__ import annotations

from .long_running_tool import LongRunningFunctionTool
from .tool_context import ToolContext


def get_user_choice(options: list[str], tool_context: ToolContext) -> str | None:
    """Provides the options to the user and asks them to choose one."""
    tool_context.actions.skip_summarization = True
    return None


get_user_choice_tool = LongRunningFunctionTool(func=get_user_choice)
