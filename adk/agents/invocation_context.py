"""InvocationContext: what one agent run in one invocation can see.

Runs on: activity side (rebuilt from the session store in each activity).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ..artifacts.base_artifact_service import BaseArtifactService
from ..events._internal_metadata import without_internal_metadata
from ..platform import uuid as platform_uuid
from ..plugins.plugin_manager import PluginManager
from ..sessions.base_session_service import BaseSessionService
from ..sessions.session import Session
from ._agent_states import AgentStates
from .run_config import RunConfig

if TYPE_CHECKING:
    from .base_agent import BaseAgent


class LlmCallsLimitExceededError(Exception):
    """More model calls than RunConfig.max_llm_calls in one invocation."""


UNPORTED_INVOCATION_NAMES = frozenset(
    {
        "abort",  # (an invocation here is stopped by the busy policy `interrupt`)
        "active_non_blocking_tool_tasks",
        "active_streaming_tools",
        "canonical_tools_cache",
        "context_cache_config",
        "credential_by_key",
        "events_compaction_config",
        "increment_llm_call_count",
        "input_realtime_cache",
        "isolation_scope",
        "live_request_queue",
        "live_session_resumption_handle",
        "node_path",
        "output_realtime_cache",
        "token_compaction_checked",
        "transcription_cache",
    }
)
"""What google-adk 2.13's InvocationContext has and durable-adk's does not: reading one
raises NotImplementedError naming it (tests/unit/test_contexts.py keeps it complete)."""


class InvocationContext(AgentStates, BaseModel):
    """The invocation's identity, session, agent and services."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    session_service: BaseSessionService | None = None
    artifact_service: BaseArtifactService | None = None
    memory_service: Any = None
    credential_service: Any = None
    invocation_id: str
    branch: str | None = None
    agent: Any
    """The agent being run (a BaseAgent)."""
    user_content: types.Content | None = None
    session: Session
    end_invocation: bool = False
    run_config: RunConfig = Field(default_factory=RunConfig)
    plugin_manager: PluginManager = Field(default_factory=PluginManager)
    resumability_config: Any = None
    """The app's ResumabilityConfig, if any."""
    agent_states: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """A resumable invocation's agent states (adk/agents/_agent_states.py)."""
    end_of_agents: dict[str, bool] = Field(default_factory=dict)
    _custom_metadata: dict[str, Any] = PrivateAttr(default_factory=dict)
    """What the contexts' `custom_metadata` shows: RunConfig.custom_metadata without its
    internal keys (google-adk 2.13's)."""

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        if self.run_config and self.run_config.custom_metadata:
            metadata = without_internal_metadata(self.run_config.custom_metadata)
            self._custom_metadata.update(metadata or {})

    def __getattr__(self, name: str) -> Any:
        if name in UNPORTED_INVOCATION_NAMES:
            raise NotImplementedError(
                f"InvocationContext.{name} (google.adk's InvocationContext.{name} in"
                " google-adk 2.13) is not implemented by durable-adk yet; see the README's"
                " porting section for what durable-adk implements."
            )
        return super().__getattr__(name)  # type: ignore[misc]

    @property
    def is_aborted(self) -> bool:
        """Always False: an invocation here runs to its end even when the caller stops
        reading its events (google-adk 2.13 aborts it then)."""
        return False

    @property
    def is_resumable(self) -> bool:
        config = self.resumability_config
        return config is not None and bool(config.is_resumable)

    def populate_invocation_agent_states(self) -> None:
        """The agent states this invocation's events record (a resumable app only)."""
        if not self.is_resumable:
            return
        for event in self.session.events:
            if event.invocation_id != self.invocation_id:
                continue
            key = event.author
            if event.actions.end_of_agent:
                self.end_of_agents[key] = True
                self.agent_states.pop(key, None)
            elif event.actions.agent_state is not None:
                self.agent_states[key] = event.actions.agent_state
                self.end_of_agents[key] = False
            elif event.author != "user" and event.content and not self.agent_states.get(key):
                self.agent_states[key] = {}
                self.end_of_agents[key] = False

    @property
    def app_name(self) -> str:
        return self.session.app_name

    @property
    def user_id(self) -> str:
        return self.session.user_id

    def agent_tree_root(self) -> BaseAgent:
        return self.agent.root_agent  # type: ignore[no-any-return]


def new_invocation_context_id() -> str:
    """A fresh invocation id: 'e-' + uuid4 (the client decides it, so it is recorded)."""
    return "e-" + platform_uuid.new_uuid()
