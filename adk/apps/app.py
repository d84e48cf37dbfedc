"""App: a named agent tree and its app-wide settings, the unit a worker serves.

Runs on: process side. Fields as google.adk 2.13's; event compaction and context
caching are not implemented yet, and an App given either raises
NotImplementedError at construction (it would otherwise run without them).
Its plugins run in the worker that serves it (`plugin_manager_of`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from .._unimplemented import not_implemented
from ..agents.base_agent import BaseAgent
from ..plugins.base_plugin import BasePlugin
from ..plugins.plugin_manager import PluginManager

_VALID_APP_NAME = re.compile(r"^[a-zA-Z][a-zA-Z0-9_-]*$")


def validate_app_name(name: str) -> None:
    """An app name starts with a letter; then letters, digits, '_' or '-'; not 'user'."""
    if not _VALID_APP_NAME.match(name):
        raise ValueError(
            f"Invalid app name '{name}': must start with a letter and can only"
            " consist of letters, digits, underscores, and hyphens."
        )
    if name == "user":
        raise ValueError("App name cannot be 'user'; reserved for end-user input.")


class ResumabilityConfig(BaseModel):
    """google.adk's resumability switch: a resumable app's invocation pauses at a pending
    long-running call or confirmation (a workflow waiting durably) and resumes there."""

    is_resumable: bool = False


class EventsCompactionConfig(BaseModel):
    """google.adk's event compaction settings (compaction is not implemented yet)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    summarizer: Any | None = None
    compaction_interval: int | None = None
    overlap_size: int | None = None
    token_threshold: int | None = None
    event_retention_size: int | None = None


class App(BaseModel):
    """An application: a name, its root agent and app-wide settings."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    name: str
    root_agent: BaseAgent = None  # type: ignore[assignment]
    """Required (as google.adk: its default is None, and None fails validation)."""
    plugins: list[BasePlugin] = Field(default_factory=list)
    events_compaction_config: EventsCompactionConfig | None = None
    context_cache_config: Any | None = None
    resumability_config: ResumabilityConfig | None = None
    _plugin_manager: PluginManager | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _validate(self) -> App:
        validate_app_name(self.name)
        if self.root_agent is None:
            raise ValueError("root_agent must be provided.")
        if self.events_compaction_config is not None:
            raise not_implemented("App(events_compaction_config=...)", "event compaction")
        if self.context_cache_config is not None:
            raise not_implemented("App(context_cache_config=...)", "context caching")
        return self


def plugin_manager_of(app: App) -> PluginManager:
    """The app's plugins, as one manager per App object (the Runner sets its own, with
    its close timeout); their state in `self` lives in the process that runs them."""
    if app._plugin_manager is None:
        app._plugin_manager = PluginManager(app.plugins)
    return app._plugin_manager


def is_resumable(app: App) -> bool:
    return app.resumability_config is not None and app.resumability_config.is_resumable
