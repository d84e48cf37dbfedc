"""LoopAgent: repeats its sub-agents. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow.
"""

from __future__ import annotations

from typing import ClassVar

from .base_agent import BaseAgent
from .base_agent_config import BaseAgentConfig
from .loop_agent_config import LoopAgentConfig


class LoopAgent(BaseAgent):
    """Repeats its sub-agents until max_iterations or an escalating event."""

    config_type: ClassVar[type[BaseAgentConfig]] = LoopAgentConfig
    """Its YAML schema (Agent Config)."""

    max_iterations: int | None = None
    """The most iterations; None: until a sub-agent escalates."""
