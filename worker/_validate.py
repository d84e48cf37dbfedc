"""Validates an agent tree when an app loads, so mistakes fail at worker start.

Runs on: process side.
"""

from __future__ import annotations

from collections import Counter

from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent


class AgentTreeError(ValueError):
    """The agent tree is malformed: the message says what to fix."""


def validate_tree(root: BaseAgent) -> None:
    """Unique agent names (transfers, routing and AgentTools find agents by name)."""
    counts = Counter(agent.name for agent in all_agents(root))
    duplicates = sorted(name for name, n in counts.items() if n > 1)
    if duplicates:
        names = ", ".join(f"`{name}`" for name in duplicates)
        raise AgentTreeError(
            f"Found duplicate agent names: {names}. All agents in the tree must have unique names."
        )
