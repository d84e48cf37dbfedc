"""What an agent tree declares: each LlmAgent's name, description, instruction,
tool declarations and LlmAgent sub-agents (the app info google-adk's dev tools show).

Runs on: process side (a toolset's `get_tools` connects to its server). Mirrors
google-adk 2.13's `google.adk.utils.agent_info`. 2.13 also wraps a workflow
node in an agent's tools as a tool; durable-adk has no workflow nodes, and an
agent there is refused as 2.13 refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pydantic
from google.genai import types

from ..agents.base_agent import BaseAgent
from ..agents.llm_agent import LlmAgent, ToolUnion
from ..tools.base_tool import BaseTool
from ..tools.base_toolset import BaseToolset
from ..tools.function_tool import FunctionTool

__all__ = ["AgentInfo", "get_agents_dict", "get_tools_info"]


class AgentInfo(pydantic.BaseModel):
    name: str
    description: str
    instruction: str
    tools: list[types.Tool]
    sub_agents: list[str]

    @pydantic.field_validator("instruction", mode="before")
    @classmethod
    def _coerce_callable_instruction(cls, value: object) -> object:
        """An instruction provider is named, not called (it may be async, or read state)."""
        if callable(value):
            name = getattr(value, "__name__", None) or type(value).__name__
            return f"<InstructionProvider: {name}>"
        return value


async def get_tools_info(tools: Sequence[ToolUnion]) -> list[Any]:
    """A `types.Tool` holding each tool's function declaration (toolsets' tools listed;
    tools without a declaration, e.g. built-in ones, left out)."""
    final: list[BaseTool] = []
    for tool in tools:
        if isinstance(tool, BaseTool):
            final.append(tool)
        elif isinstance(tool, BaseAgent):
            raise ValueError(
                f"Agent '{tool.name}' cannot be used directly as a tool. Agents"
                " should be invoked as sub-agents."
            )
        elif isinstance(tool, BaseToolset):
            final.extend(await tool.get_tools())
        else:
            final.append(FunctionTool(tool))
    declarations = (tool._get_declaration() for tool in final)
    return [
        types.Tool(function_declarations=[declaration])
        for declaration in declarations
        if declaration
    ]


async def get_agents_dict(agent: LlmAgent) -> dict[str, AgentInfo]:
    """AgentInfo of the agent and of its LlmAgent sub-agents, depth first (each name once;
    a sub-agent before its parent)."""
    agents: dict[str, AgentInfo] = {}

    async def traverse(current: LlmAgent) -> None:
        if current.name in agents:
            return
        sub_agents = []
        for sub_agent in current.sub_agents:
            if isinstance(sub_agent, LlmAgent):
                await traverse(sub_agent)
                sub_agents.append(sub_agent.name)
        agents[current.name] = AgentInfo(
            name=current.name,
            description=current.description,
            instruction=current.instruction,  # type: ignore[arg-type]
            tools=await get_tools_info(current.tools),
            sub_agents=sub_agents,
        )

    await traverse(agent)
    return agents
