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
from .run_config import RunConfig

if TYPE_CHECKING:
    from .base_agent import BaseAgent


class LlmCallsLimitExceededError(Exception):
    """More model calls than RunConfig.max_llm_calls in one invocation."""


class InvocationContext(BaseModel):
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
