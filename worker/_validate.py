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
    if _swapped_searches(root) > 1:
        raise AgentTreeError(
            "More than one agent uses GoogleSearchTool(bypass_multi_tools_limit=True) beside"
            " other tools: each would run a `google_search_agent`, and durable-adk finds"
            " agents by name. Give one agent the search, or put it under an agent of its own."
        )
    if duplicates:
        names = ", ".join(f"`{name}`" for name in duplicates)
        raise AgentTreeError(
            f"Found duplicate agent names: {names}. All agents in the tree must have unique names."
        )


def _swapped_searches(root: BaseAgent) -> int:
    """How many GoogleSearchTools the tree runs as a `google_search_agent` of their own."""
    from adk.agents.llm_agent import LlmAgent

    count = 0
    for agent in all_agents(root):
        if isinstance(agent, LlmAgent):
            count += sum(1 for tool in agent.tools if agent._swapped_tool(tool) is not tool)
    return count
