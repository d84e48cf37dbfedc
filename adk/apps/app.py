"""App: a named agent tree (and, later, its plugins), the unit a worker serves.

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..agents.base_agent import BaseAgent


class App(BaseModel):
    """An application: a name and its root agent."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    name: str
    root_agent: BaseAgent
    plugins: list[Any] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _validate_name(cls, value: str) -> str:
        if not value or not value.replace("-", "_").isidentifier():
            raise ValueError(
                f"Invalid app name {value!r}: use letters, digits, underscores or dashes."
            )
        return value
