"""An instruction fetched from an MCP prompt (McpInstructionProvider): a real MCP
server (tests/apps/mcp_notes/server.py) started over stdio by each side; the
prompt's arguments come from the session state, so a tool that changes the state
changes the next model call's instruction; a sub-agent's instruction is a prompt
of several messages, one not text."""

import sys
from pathlib import Path

from google.adk.agents import LlmAgent, McpInstructionProvider
from google.adk.tools.mcp_tool import StdioConnectionParams
from google.adk.tools.tool_context import ToolContext
from google.genai import types
from mcp import StdioServerParameters

SERVER = Path(__file__).resolve().parents[2] / "apps" / "mcp_notes" / "server.py"
TURNS = ["hello", "be patient now", "who keeps the house rules?"]
INITIAL_STATE = {"user_name": "Ann", "unrelated": "left out"}


def set_mood(mood: str, tool_context: ToolContext) -> str:
    """Sets the mood the notes keeper answers in."""
    tool_context.state["mood"] = mood
    return f"mood set to {mood}"


def _params() -> StdioConnectionParams:
    return StdioConnectionParams(
        server_params=StdioServerParameters(command=sys.executable, args=[str(SERVER)]),
        timeout=20,
    )


def build(scripted):
    rules = LlmAgent(
        name="rules_agent",
        model=scripted("Never delete a note."),
        description="Knows the house rules.",
        instruction=McpInstructionProvider(_params(), "house_rules"),
    )
    return LlmAgent(
        name="notes_agent",
        model=scripted(
            "Hello Ann.",
            types.Part.from_function_call(name="set_mood", args={"mood": "patient"}),
            "I will be patient.",
            types.Part.from_function_call(
                name="transfer_to_agent", args={"agent_name": "rules_agent"}
            ),
        ),
        instruction=McpInstructionProvider(_params(), "persona"),
        tools=[set_mood],
        sub_agents=[rules],
    )
