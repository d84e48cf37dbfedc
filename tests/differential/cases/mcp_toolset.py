"""An MCP toolset: a real MCP server (tests/apps/mcp_notes/server.py, the `mcp`
package's server side) started over stdio by each side, its tools listed,
filtered, prefixed, declared from their MCP schemas (descriptions fenced) and
called; a tool that fails on the server, and a plain function beside them."""

import sys
from pathlib import Path

from google.adk.agents import LlmAgent
from google.adk.tools.mcp_tool import McpToolset, StdioConnectionParams
from google.genai import types
from mcp import StdioServerParameters

SERVER = Path(__file__).resolve().parents[2] / "apps" / "mcp_notes" / "server.py"
TURNS = ["note that the milk is out", "what notes do I have?"]


def today() -> str:
    """Returns today's date."""
    return "2026-11-27"


def _call(name: str, **args) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


def build(scripted):
    notes = McpToolset(
        connection_params=StdioConnectionParams(
            server_params=StdioServerParameters(command=sys.executable, args=[str(SERVER)]),
            timeout=20,
        ),
        tool_filter=["add_note", "list_notes", "fail"],
        tool_name_prefix="notes",
    )
    model = scripted(
        _call("notes_add_note", title="milk", text="the milk is out"),
        [_call("today"), _call("notes_list_notes")],
        "Saved: milk.",
        _call("notes_fail", reason="disk full"),
        _call("notes_list_notes"),
        "You have one note: milk.",
    )
    return LlmAgent(
        name="notes_agent",
        model=model,
        instruction="Keep the user's notes with the notes tools.",
        tools=[today, notes],
    )
