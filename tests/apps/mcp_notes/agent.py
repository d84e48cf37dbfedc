"""MCP notes app: an agent whose tools come from a real MCP server (server.py, over
stdio, started by the worker), called three times in a row, the middle call slow.

Used by tests/workflows/test_mcp_durability.py, which SIGKILLs the worker serving it
between two MCP calls. The server appends each call to $MCP_NOTES_LOG and keeps the
notes in $MCP_NOTES_FILE, so they outlive its process. Heartbeat timeouts are short
(2 s), so an attempt lost with its worker is retried quickly on another one.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

from google.genai import types

from adk import ActivityOptions, Agent
from adk.testing import MockModel
from adk.tools.mcp_tool import McpToolset, StdioConnectionParams
from adk.tools.mcp_tool.mcp_session_manager import StdioServerParameters

SERVER = Path(__file__).with_name("server.py")


def _call(name: str, **args: object) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


SCRIPT = [
    _call("add_note", title="milk", text="the milk is out"),
    _call("slow_count", word="milk"),
    _call("list_notes"),
    "One note mentions milk: milk.",
]

_FAST_RETRY = ActivityOptions(
    heartbeat_timeout=timedelta(seconds=2), initial_interval=timedelta(milliseconds=100)
)

notes = McpToolset(
    connection_params=StdioConnectionParams(
        server_params=StdioServerParameters(
            command=sys.executable, args=[str(SERVER)], env=dict(os.environ)
        ),
        timeout=20,  # the slow tool takes 1.5 s; a loaded CI machine starts Python slowly
    ),
)
notes.activity_options = _FAST_RETRY  # each MCP call: a tool-call activity with these

root_agent = Agent(
    name="mcp_notes",
    model=MockModel.create(SCRIPT),
    instruction="Keep the user's notes.",
    tools=[notes],
    output_key="answer",
    model_activity_options=_FAST_RETRY,
)
