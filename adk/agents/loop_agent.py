"""LoopAgent: repeats its sub-agents. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow.
"""

from __future__ import annotations

from .base_agent import BaseAgent


class LoopAgent(BaseAgent):
    """Repeats its sub-agents until max_iterations or an escalating event."""

    max_iterations: int | None = None
    """The most iterations; None: until a sub-agent escalates."""
