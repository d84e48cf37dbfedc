"""SequentialAgent: runs its sub-agents one after another. Mirrors google.adk's module.

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
from .sequential_agent_config import SequentialAgentConfig


@deprecated(_workflow_agent_deprecation("SequentialAgent"))
class SequentialAgent(BaseAgent):
    """Runs its sub-agents one after another, in order."""

    config_type: ClassVar[type[BaseAgentConfig]] = SequentialAgentConfig
    """Its YAML schema (Agent Config)."""
