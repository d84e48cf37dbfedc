"""LoopAgent: repeats its sub-agents. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow.

Deprecated in google-adk 2.13 in favour of Workflow, and so here: constructing
one warns as 2.13 does (`_deprecations`).
"""

from __future__ import annotations

from typing import ClassVar

from typing_extensions import deprecated

from ._deprecations import _workflow_agent_deprecation
from .base_agent import BaseAgent
from .base_agent_config import BaseAgentConfig
from .loop_agent_config import LoopAgentConfig


@deprecated(_workflow_agent_deprecation("LoopAgent"))
class LoopAgent(BaseAgent):
    """Repeats its sub-agents until max_iterations or an escalating event."""

    config_type: ClassVar[type[BaseAgentConfig]] = LoopAgentConfig
    """Its YAML schema (Agent Config)."""

    max_iterations: int | None = None
    """The most iterations; None: until a sub-agent escalates."""
