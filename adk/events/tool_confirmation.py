"""ToolConfirmation: a human's answer to a tool that asked for approval.

Runs on: both sides (pure data, sandbox-safe). It lives beside the event types
that carry it (EventActions.requested_tool_confirmations); its public path,
`adk.tools.tool_confirmation`, re-exports it as google.adk.tools.tool_confirmation does.
"""

from __future__ import annotations

import json
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

    @classmethod
    def from_response_dict(cls, response: dict[str, Any]) -> ToolConfirmation:
        """The confirmation in a function response's dict: as it is, or wrapped as
        ADK's web client sends it (`{"response": "<json>"}`)."""
        if response and len(response) == 1 and "response" in response:
            return cls.model_validate(json.loads(response["response"]))
        return cls.model_validate(response)
