"""Request bodies: google-adk 2.13's api_server models (camelCase aliases, snake_case
accepted too), and the bodies of our human-in-the-loop routes.

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, alias_generators

from adk.events.event import Event


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=alias_generators.to_camel, populate_by_name=True)


class RunAgentRequest(_Camel):
    """The body of /run and /run_sse."""

    app_name: str | None = None
    user_id: str
    session_id: str
    new_message: types.Content | None = None
    streaming: bool = False
    """Token streaming (partial events): not supported (501)."""
    state_delta: dict[str, Any] | None = None
    function_call_event_id: str | None = None
    """As in google-adk: /run_sse then sends an event with an artifact delta whole."""
    invocation_id: str | None = None
    custom_metadata: dict[str, Any] | None = None
    service_tier: str | None = None
    """Not supported (501)."""


class CreateSessionRequest(_Camel):
    session_id: str | None = None
    state: dict[str, Any] | None = None
    events: list[Event] | None = None
    """Not supported (501)."""
    options: dict[str, Any] | None = None
    """Not supported (501)."""


class UpdateSessionRequest(_Camel):
    state_delta: dict[str, Any]


class SaveArtifactRequest(_Camel):
    filename: str
    artifact: types.Part
    custom_metadata: dict[str, Any] | None = None


class ApproveRequest(_Camel):
    """The body of `:approve` (optional): a payload for the tool."""

    payload: Any = None


class ResultRequest(_Camel):
    """The body of `:respond` and `:progress`: the long-running call's result."""

    result: Any = Field(...)
