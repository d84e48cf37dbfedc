"""App: a named agent tree and its app-wide settings, the unit a worker serves.

Runs on: process side. Fields as google.adk 2.13's; context caching is not
implemented yet, and an App given it raises
NotImplementedError at construction (it would otherwise run without them).
Its plugins run in the worker that serves it (`plugin_manager_of`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from .._unimplemented import not_implemented
from ..agents.base_agent import BaseAgent
from ..plugins.base_plugin import BasePlugin
from ..plugins.plugin_manager import PluginManager
from ..workflow._base_node import BaseNode
from ._busy_policy import BUSY_POLICIES, BusyPolicy
from .base_events_summarizer import BaseEventsSummarizer

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
    """google.adk 2.13's event compaction settings (adk/apps/compaction.py runs them).

    Two triggers, each a pair set together: the sliding window (after every
    `compaction_interval` new invocations, summarise them and `overlap_size`
    before them) and the token threshold (once the latest prompt reached
    `token_threshold` tokens, summarise all but the last `event_retention_size`
    events; checked before each model call and after the invocation).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    summarizer: BaseEventsSummarizer | None = None
    """Writes the summary (default: LlmEventSummarizer over the root agent's model)."""
    compaction_interval: int | None = Field(default=None, gt=0)
    """New user-initiated invocations that trigger a sliding-window compaction."""
    overlap_size: int | None = Field(default=None, ge=0)
    """Invocations before the new ones that the next summary covers again."""
    token_threshold: int | None = Field(default=None, gt=0)
    """Prompt tokens (the latest recorded count, else an estimate) that trigger one."""
    event_retention_size: int | None = Field(default=None, ge=0)
    """Raw events a token-threshold compaction leaves as they are."""

    @model_validator(mode="after")
    def _validate_trigger_params(self) -> EventsCompactionConfig:
        tokens = self.token_threshold is not None
        if tokens != (self.event_retention_size is not None):
            raise ValueError("token_threshold and event_retention_size must be set together.")
        window = self.compaction_interval is not None
        if window != (self.overlap_size is not None):
            raise ValueError("compaction_interval and overlap_size must be set together.")
        if not (tokens or window):
            raise ValueError(
                "At least one compaction trigger must be configured: the"
                " token-threshold pair or the sliding-window pair."
            )
        return self


class App(BaseModel):
    """An application: a name, its root agent and app-wide settings."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    name: str
    if TYPE_CHECKING:  # the engine only ever runs agents: a Workflow root raises first
        root_agent: BaseAgent
    else:
        root_agent: BaseNode = None
    """Required (as google.adk: its default is None, and None fails validation). An agent,
    or (google.adk 2.13's) a Workflow: accepted, but running one raises
    NotImplementedError (`refuse_graph_root`)."""
    plugins: list[BasePlugin] = Field(default_factory=list)
    events_compaction_config: EventsCompactionConfig | None = None
    context_cache_config: Any | None = None
    resumability_config: ResumabilityConfig | None = None
    busy_policy: BusyPolicy = "reject"
    """durable-adk's own: what a message for a session whose invocation is running
    does (README, *A message while the agent is busy*): `reject` (SessionBusyError),
    `queue` (runs next, in arrival order) or `interrupt` (the running one stops at its
    next model call, then this one runs)."""
    _plugin_manager: PluginManager | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _check_busy_policy(cls, data: Any) -> Any:
        if isinstance(data, dict) and "busy_policy" in data:
            policy = data["busy_policy"]
            if policy not in BUSY_POLICIES:
                raise ValueError(
                    f"App busy_policy must be one of {', '.join(map(repr, BUSY_POLICIES))},"
                    f" not {policy!r}."
                )
        return data

    @model_validator(mode="after")
    def _validate(self) -> App:
        validate_app_name(self.name)
        if self.root_agent is None:
            raise ValueError("root_agent must be provided.")
        if self.context_cache_config is not None:
            raise not_implemented("App(context_cache_config=...)", "context caching")
        return self


def refuse_graph_root(root: object, app: App | None = None) -> None:
    """Running a root that is not an agent: a google.adk.workflow Workflow runs when
    it uses only what is implemented (adk/workflow/_gaps.py); anything else raises
    NotImplementedError naming the first missing feature."""
    if isinstance(root, BaseAgent):
        return
    from ..workflow._gaps import graph_gaps
    from ..workflow._workflow import Workflow

    name = getattr(root, "name", None)
    running = f"Running a {type(root).__name__} root{f' ({name!r})' if name else ''}"
    if not isinstance(root, Workflow):
        raise not_implemented(running, "running other google.adk.workflow nodes as roots")
    gaps = graph_gaps(root, app)
    if gaps:
        what, feature = gaps[0]
        raise not_implemented(f"{running} with {what}", f"{feature} (README, *Workflow graphs*)")


def plugin_manager_of(app: App) -> PluginManager:
    """The app's plugins, as one manager per App object (the Runner sets its own, with
    its close timeout); their state in `self` lives in the process that runs them."""
    if app._plugin_manager is None:
        app._plugin_manager = PluginManager(app.plugins)
    return app._plugin_manager


def is_resumable(app: App) -> bool:
    return app.resumability_config is not None and app.resumability_config.is_resumable
