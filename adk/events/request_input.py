"""RequestInput: a node's request for user input (google.adk.events.RequestInput).

Runs on: both sides (pure data). A node yields one to pause for an answer; the
interrupt id defaults to a fresh uuid (adk.platform's, made where node code runs).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, alias_generators

from ..platform import uuid as platform_uuid
from ..utils._schema_utils import SchemaType


class RequestInput(BaseModel):
    """A request for input from the user (camelCase aliases, as 2.13)."""

    model_config = ConfigDict(
        arbitrary_types_allowed=True,
        alias_generator=alias_generators.to_camel,
        populate_by_name=True,
    )

    interrupt_id: str = Field(
        description=(
            "The ID of the interrupt, usually a function call ID. This is used"
            " to identify the interrupt that the input is for."
        ),
        default_factory=platform_uuid.new_uuid,
    )
    """Answers are matched to it (reusing one across loop iterations is allowed)."""
    payload: Any | None = None
    """Custom payload to be provided for resuming."""
    message: str | None = Field(
        None, description="A message to display to the user when requesting input."
    )
    response_schema: SchemaType | None = Field(
        None,
        description=(
            "The expected schema of the response. Accepts a Python type"
            " (e.g. a Pydantic BaseModel class), a generic alias"
            " (e.g. list[str]), or a raw JSON Schema dict."
            " If None, it defaults to Any."
        ),
    )
