"""SequentialAgent: runs its sub-agents one after another. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow.
"""

from __future__ import annotations

from typing import ClassVar

from .base_agent import BaseAgent
from .base_agent_config import BaseAgentConfig
from .sequential_agent_config import SequentialAgentConfig


class SequentialAgent(BaseAgent):
    """Runs its sub-agents one after another, in order."""

    config_type: ClassVar[type[BaseAgentConfig]] = SequentialAgentConfig
    """Its YAML schema (Agent Config)."""
