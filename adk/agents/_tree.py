"""Walking an agent tree, including the agents its AgentTools run.

Runs on: process and activity side (pure).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator

from .base_agent import BaseAgent

logger = logging.getLogger(__name__)


def all_agents(root: BaseAgent) -> Iterator[BaseAgent]:
    """Every agent of the tree, and of the trees its AgentTools run (depth first)."""
    from ..tools.agent_tool import AgentTool

    if not hasattr(root, "sub_agents"):  # a Workflow root: no agent nodes run yet
        return
    yield root
    swapped = getattr(root, "_swapped_tool", lambda tool: tool)  # (a search agent's)
    for tool in map(swapped, getattr(root, "tools", [])):
        if isinstance(tool, AgentTool):
            yield from all_agents(tool.agent)
    for sub_agent in root.sub_agents:
        yield from all_agents(sub_agent)


async def close_toolsets(root: BaseAgent) -> None:
    """Close each toolset of the tree once (its MCP sessions, a stdio server's process),
    as google-adk 2.13's Runner.close does. A toolset's close logs its own errors.
    durable-adk also closes the MCP sessions of McpInstructionProviders (instruction
    or global_instruction), which google-adk 2.13 leaves open."""
    from ..tools.base_toolset import BaseToolset

    providers = sys.modules.get(__package__ + ".mcp_instruction_provider")  # only if used
    seen: set[int] = set()
    for agent in all_agents(root):
        for tool in getattr(agent, "tools", []):
            if isinstance(tool, BaseToolset) and id(tool) not in seen:
                seen.add(id(tool))
                await tool.close()
        if providers is None:
            continue
        for instruction in (getattr(agent, "instruction", None),
                            getattr(agent, "global_instruction", None)):  # fmt: skip
            if isinstance(instruction, providers.McpInstructionProvider) and (
                id(instruction) not in seen
            ):
                seen.add(id(instruction))
                try:
                    await instruction.close()
                except Exception as error:
                    logger.warning("Error closing an McpInstructionProvider: %s", error)
