"""Agent modes (google-adk 2.13's `utils._agent_mode`).

Runs on: process side (pure).
"""

from __future__ import annotations

import enum
from typing import Literal, TypeAlias


class AgentMode(enum.StrEnum):
    """How an agent is delegated to; members equal (and print as) their values."""

    CHAT = "chat"
    """Reached through transfer_to_agent (the only mode durable-adk implements)."""
    TASK = "task"
    """A multi-turn task finished with finish_task (not implemented)."""
    SINGLE_TURN = "single_turn"
    """A task done from its input without user replies (not implemented)."""


LlmAgentMode: TypeAlias = Literal["chat", "task", "single_turn"] | AgentMode
"""LlmAgent.mode's type: a value or an AgentMode (as 2.13 validates it)."""
