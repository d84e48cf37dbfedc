"""SequentialAgent: runs its sub-agents one after another. Mirrors google.adk's module.

Runs on: process side (defined in user apps); the workflow orchestrates it,
each sub-agent run being a child workflow.
"""

from __future__ import annotations

from .base_agent import BaseAgent


class SequentialAgent(BaseAgent):
    """Runs its sub-agents one after another, in order."""
