"""Context (ToolContext): what a tool and tool callbacks get: state, actions, confirmation.

Runs on: activity side (the tool-call activity builds it). As in google.adk
2.13, it lives here as `Context`; `adk.tools.tool_context.ToolContext` is the
same class. (Agent and model callbacks get its base, CallbackContext.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events.event_actions import EventActions
from ..events.tool_confirmation import ToolConfirmation
from .callback_context import CallbackContext

if TYPE_CHECKING:
    from .invocation_context import InvocationContext


class Context(CallbackContext):
    """Context of one function call."""

    def __init__(
        self,
        invocation_context: InvocationContext,
        *,
        function_call_id: str | None = None,
        event_actions: EventActions | None = None,
        tool_confirmation: ToolConfirmation | None = None,
    ) -> None:
        super().__init__(invocation_context, event_actions=event_actions)
        self.function_call_id = function_call_id
        self.tool_confirmation = tool_confirmation
