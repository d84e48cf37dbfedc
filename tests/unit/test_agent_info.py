"""adk.utils.agent_info against google-adk 2.13's: the same AgentInfo for the same
agent tree (function tools, built-in tools, an AgentTool, a long-running tool, an
MCP toolset on a real server over stdio, instruction providers of each kind), and
the same refusal of an agent given as a tool.

Runs on: test process (a stdio MCP server per side).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.apps.mcp_notes.serving import SERVER

SOURCE = '''
import sys
from google.genai import types

def add(a: int, b: int = 2) -> int:
    """Adds two numbers."""
    return a + b

async def greeting(readonly_context) -> str:
    return "Greet."

class Custom(BaseAgent):
    """Not an LlmAgent: left out, with its sub-agents."""

class Provider:
    def __call__(self, readonly_context) -> str:
        return "Provided."

def approve(request: str, tool_context: ToolContext) -> dict:
    """Asks for approval."""
    return {}

notes = McpToolset(
    connection_params=StdioConnectionParams(
        server_params=StdioServerParameters(command=sys.executable, args=[SERVER]), timeout=20
    ),
    tool_filter=["add_note", "list_notes"],
    tool_name_prefix="notes",
)
helper = LlmAgent(name="helper", description="Helps.", instruction="Help.", tools=[add])
leaf = LlmAgent(name="leaf", instruction=greeting)
ROOT = LlmAgent(
    name="root",
    description="The root.",
    instruction="Be {mood?}.",
    tools=[add, FunctionTool(approve), LongRunningFunctionTool(approve), google_search,
           AgentTool(helper), notes],
    sub_agents=[
        LlmAgent(name="provided", instruction=Provider(), tools=[exit_loop]),
        LlmAgent(name="mcp", instruction=McpInstructionProvider(notes.connection_params, "persona")),
        Custom(name="steps", sub_agents=[leaf]),
        LlmAgent(name="lambda", instruction=lambda ctx: "x", sub_agents=[
            LlmAgent(name="deep", description="Deep.")]),
    ],
)
'''


def _side(package: str) -> dict[str, Any]:
    names: dict[str, Any] = {"SERVER": str(SERVER)}
    for module, attributes in {
        "agents": ["BaseAgent", "LlmAgent", "McpInstructionProvider"],
        "tools": ["AgentTool", "FunctionTool", "LongRunningFunctionTool", "ToolContext",
                  "google_search", "exit_loop"],
        "tools.mcp_tool": ["McpToolset", "StdioConnectionParams"],
        "tools.mcp_tool.mcp_session_manager": ["StdioServerParameters"],
    }.items():  # fmt: skip
        imported = __import__(f"{package}.{module}", fromlist=attributes)
        names.update({name: getattr(imported, name) for name in attributes})
    exec(SOURCE, names)
    return names


async def test_the_agents_dict_is_google_adks() -> None:
    from google.adk.utils.agent_info import get_agents_dict as reference

    from adk.utils.agent_info import get_agents_dict

    ours, theirs = _side("adk"), _side("google.adk")
    try:
        mine = {
            k: v.model_dump(mode="json") for k, v in (await get_agents_dict(ours["ROOT"])).items()
        }
        expected = {
            k: v.model_dump(mode="json") for k, v in (await reference(theirs["ROOT"])).items()
        }
    finally:
        await ours["notes"].close()
        await theirs["notes"].close()
    assert list(mine) == list(expected)  # the same order: depth first
    assert mine == expected
    root = mine["root"]
    assert [t["function_declarations"][0]["name"] for t in root["tools"]] == [
        "add", "approve", "approve", "helper", "add_note", "list_notes",  # (unprefixed, as 2.13)
    ]  # fmt: skip
    assert mine["mcp"]["instruction"] == "<InstructionProvider: McpInstructionProvider>"


async def test_an_agent_as_a_tool_is_refused_as_in_google_adk() -> None:
    from google.adk.agents import LlmAgent as ReferenceAgent
    from google.adk.utils.agent_info import get_tools_info as reference

    from adk.agents import LlmAgent
    from adk.utils.agent_info import get_tools_info

    with pytest.raises(ValueError) as theirs:
        await reference([ReferenceAgent(name="b")])
    with pytest.raises(ValueError) as ours:
        await get_tools_info([LlmAgent(name="b")])
    assert str(ours.value) == str(theirs.value)
