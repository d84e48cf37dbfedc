"""UiWidget: rendering metadata a UI may show for an event (google.adk.events.ui_widget).

Runs on: both sides (pure data). Carried in `EventActions.render_ui_widgets`;
nothing here renders it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, alias_generators


class UiWidget(BaseModel):
    """A widget for the UI to render with the named provider's renderer."""

    model_config = ConfigDict(
        extra="forbid", alias_generator=alias_generators.to_camel, populate_by_name=True
    )

    id: str
    """The unique identifier of the UI widget."""
    provider: str
    """Which rendering strategy the UI uses (2.13 knows 'mcp': an MCP App iframe)."""
    payload: dict[str, Any] = Field(default_factory=dict)
    """Provider-specific data (for 'mcp': resource_uri, tool, tool_args)."""
