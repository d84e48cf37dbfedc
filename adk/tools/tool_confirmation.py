"""ToolConfirmation at google.adk's public path (`google.adk.tools.tool_confirmation`).

Runs on: both sides (pure data). Defined in `adk.events.tool_confirmation`,
beside the event types that carry it.
"""

from ..events.tool_confirmation import ToolConfirmation

__all__ = ["ToolConfirmation"]
