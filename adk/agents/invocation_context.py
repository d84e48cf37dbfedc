"""InvocationContext: what one agent run in one invocation can see.

Runs on: activity side (rebuilt from the session store in each activity).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from google.genai import types
from pydantic import BaseModel, ConfigDict, Field

from ..artifacts.base_artifact_service import BaseArtifactService
from ..plugins.plugin_manager import PluginManager
from ..sessions.base_session_service import BaseSessionService
from ..sessions.session import Session
from ._agent_states import AgentStates
from .run_config import RunConfig

if TYPE_CHECKING:
    from .base_agent import BaseAgent


class LlmCallsLimitExceededError(Exception):
    """More model calls than RunConfig.max_llm_calls in one invocation."""


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
    return "e-" + str(uuid.uuid4())
