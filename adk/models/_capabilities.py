"""LlmCapabilities: what a model reports it supports (google-adk 2.13).

Runs on: activity and process side (request building; spec building).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LlmCapabilities(BaseModel):
    """A model's resolved capabilities (`BaseLlm.capabilities`, recomputed on each
    read). Immutable: override a capability by subclassing the model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    output_schema_and_tools: bool = Field(
        default=False,
        description="Whether the model can use an output schema together with tools.",
    )
