"""Event: one entry of a session's log (a message, a tool call, a tool result...).

Runs on: both sides (pure data, sandbox-safe). On the workflow side `id` and
`timestamp` are always given explicitly (from workflow.uuid4()/workflow.now()).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from google.genai import types
from pydantic import ConfigDict, Field, alias_generators, field_serializer

from ..models.llm_response import LlmResponse
from .event_actions import EventActions


class Event(LlmResponse):
    """An event in a session: who said what, and what it changed."""

    model_config = ConfigDict(
        extra="ignore",
        ser_json_bytes="base64",
        val_json_bytes="base64",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    invocation_id: str = ""
    """The invocation this event belongs to."""
    author: str = ""
    """'user' or the name of the agent that produced the event."""
    actions: EventActions = Field(default_factory=EventActions)
    """Side effects (state delta, transfer, escalation...)."""
    long_running_tool_ids: set[str] | None = None
    """Ids of function calls of long-running tools in this event."""
    branch: str | None = None
    """Dot-separated agent path (`root.child`) isolating parallel branches."""
    id: str = ""
    """Unique id; assigned when empty."""
    timestamp: float = Field(default_factory=lambda: datetime.now().timestamp())
    """Seconds since the epoch."""

    @field_serializer("long_running_tool_ids")
    def _sorted_ids(self, ids: set[str] | None) -> list[str] | None:
        """Sorted: the same event serializes to the same bytes in every process."""
        return sorted(ids) if ids is not None else None

    def model_post_init(self, __context: object) -> None:
        if not self.id:
            self.id = Event.new_id()

    def is_final_response(self) -> bool:
        """Whether this event ends the agent's turn (ADK's termination predicate)."""
        if self.actions.skip_summarization or self.long_running_tool_ids:
            return True
        return (
            not self.get_function_calls()
            and not self.get_function_responses()
            and not self.partial
            and not self.has_trailing_code_execution_result()
        )

    def get_function_calls(self) -> list[types.FunctionCall]:
        """The function calls in this event, in order."""
        if not self.content or not self.content.parts:
            return []
        return [p.function_call for p in self.content.parts if p.function_call]

    def get_function_responses(self) -> list[types.FunctionResponse]:
        """The function responses in this event, in order."""
        if not self.content or not self.content.parts:
            return []
        return [p.function_response for p in self.content.parts if p.function_response]

    def has_trailing_code_execution_result(self) -> bool:
        """Whether the last part is a code execution result."""
        if self.content and self.content.parts:
            return self.content.parts[-1].code_execution_result is not None
        return False

    @staticmethod
    def new_id() -> str:
        return str(uuid.uuid4())
