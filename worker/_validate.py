"""Validates an agent tree when an app loads, so mistakes fail at worker start.

Runs on: process side.
"""

from __future__ import annotations

from collections import Counter

from adk.agents.base_agent import BaseAgent


class AgentTreeError(ValueError):
    """The agent tree is malformed: the message says what to fix."""


def _walk(agent: BaseAgent) -> list[BaseAgent]:
    """The tree, and the agents its AgentTools run (they share the name space)."""
    from adk.tools.agent_tool import AgentTool

    found = [agent]
    for tool in getattr(agent, "tools", []):
        if isinstance(tool, AgentTool):
            found.extend(_walk(tool.agent))
    for sub in agent.sub_agents:
        found.extend(_walk(sub))
    return found


def validate_tree(root: BaseAgent) -> None:
    """Unique agent names (transfers, routing and AgentTools find agents by name)."""
    counts = Counter(agent.name for agent in _walk(root))
    duplicates = sorted(name for name, n in counts.items() if n > 1)
    if duplicates:
        names = ", ".join(f"`{name}`" for name in duplicates)
        raise AgentTreeError(
            f"Found duplicate agent names: {names}. All agents in the tree must have unique names."
        )
