"""ParallelAgent: runs its sub-agents concurrently. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow on its own branch.

Deprecated in google-adk 2.13 in favour of Workflow, and so here: constructing
one warns as 2.13 does (`_deprecations`).
"""

from __future__ import annotations

from typing import ClassVar

from typing_extensions import deprecated

from ._deprecations import _workflow_agent_deprecation
from .base_agent import BaseAgent
from .base_agent_config import BaseAgentConfig
from .parallel_agent_config import ParallelAgentConfig


@deprecated(_workflow_agent_deprecation("ParallelAgent"))
class ParallelAgent(BaseAgent):
    """Runs its sub-agents concurrently, each on its own branch."""

    config_type: ClassVar[type[BaseAgentConfig]] = ParallelAgentConfig
    """Its YAML schema (Agent Config)."""
