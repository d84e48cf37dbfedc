"""EventActions: the side effects an event carries (state, transfer, escalation...).

Runs on: both sides (pure data, sandbox-safe).
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, alias_generators

from ..utils._compact import Compact
from .tool_confirmation import ToolConfirmation


class EventCompaction(BaseModel):
    """What a compaction event replaces: the events between two timestamps, summarised."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    start_timestamp: float
    """The first compacted event's timestamp, in seconds."""
    end_timestamp: float
    """The last compacted event's timestamp, in seconds."""
    compacted_content: types.Content
    """The summary that stands for them."""


class EventActions(Compact):
    """Actions attached to an event. State changes happen only through `state_delta`."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    skip_summarization: bool | None = None
    """If true, the model is not called to summarize a function response."""
    state_delta: dict[str, object] = Field(default_factory=dict)
    """Absolute new values for state keys (None is stored as a value)."""
    artifact_delta: dict[str, int] = Field(default_factory=dict)
    """Artifact name -> new version."""
    transfer_to_agent: str | None = None
    """Name of the agent to hand the conversation to."""
    transfer_reason: str | None = None
    """Why the model transferred (transfer_to_agent's optional transfer_reason)."""
    escalate: bool | None = None
    """Ends the enclosing LoopAgent."""
    requested_auth_configs: dict[str, Any] = Field(default_factory=dict)
    """Function call id -> auth config a tool asked for."""
    requested_tool_confirmations: dict[str, ToolConfirmation] = Field(default_factory=dict)
    """Function call id -> confirmation a tool asked for."""
    compaction: EventCompaction | None = None
    """Set on a compaction event."""
    end_of_agent: bool | None = None
    """The agent finished its run in this invocation."""
    agent_state: dict[str, Any] | None = None
    """Checkpoint state of an agent."""
    rewind_before_invocation_id: str | None = None
    """Rewind the session to before this invocation."""
    route: bool | int | str | list[bool | int | str] | None = None
    """Route(s) for workflow graph edges (google-adk 2.13 workflows; not run here)."""
    render_ui_widgets: list[Any] | None = None
    """UI widgets for a UI to render (kept as data; nothing here renders them)."""
    set_model_response: Any | None = None
    """The structured output an output_schema agent gave through set_model_response."""
