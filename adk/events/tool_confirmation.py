"""ToolConfirmation: a human's answer to a tool that asked for approval.

Runs on: both sides (pure data, sandbox-safe). It lives beside the event types
that carry it (EventActions.requested_tool_confirmations); its public path,
`adk.tools.tool_confirmation`, re-exports it as google.adk.tools.tool_confirmation does.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, alias_generators


class ToolConfirmation(BaseModel):
    """The confirmation a tool asked for, and (once answered) the answer."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    hint: str = ""
    """What the tool tells the human about the decision."""
    confirmed: bool = False
    """Whether the human approved."""
    payload: Any | None = None
    """Optional structured data the tool asked for, or the human sent back."""
