"""ParallelAgent: runs its sub-agents concurrently. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow on its own branch.
"""

from __future__ import annotations

from .base_agent import BaseAgent


class ParallelAgent(BaseAgent):
    """Runs its sub-agents concurrently, each on its own branch."""
