"""SequentialAgent, ParallelAgent, LoopAgent: shell agents that run sub-agents.

Runs on: process side (defined in user apps); the workflow orchestrates them,
each sub-agent run being a child workflow.
"""

from __future__ import annotations

from .base_agent import BaseAgent


class SequentialAgent(BaseAgent):
    """Runs its sub-agents one after another, in order."""


class ParallelAgent(BaseAgent):
    """Runs its sub-agents concurrently, each on its own branch."""


class LoopAgent(BaseAgent):
    """Repeats its sub-agents until max_iterations or an escalating event."""

    max_iterations: int | None = None
