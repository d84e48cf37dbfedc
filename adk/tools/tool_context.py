"""ToolContext at google.adk's path: the Context a tool gets.

Runs on: activity side. Defined in `adk.agents.context` (as in google.adk 2.13,
where ToolContext is Context).
"""

from ..agents.context import Context as ToolContext

__all__ = ["ToolContext"]
