"""MCP files: an agent whose tools come from an MCP server (`files_server.py`, over
stdio), served durably (`python -m worker examples/mcp_files`).

The worker starts the server on the first model step that lists its tools, and
keeps the session for every later listing and call of that process; each MCP
call is a tool-call activity of its own (timeouts and retries below), recorded
in the workflow's history, so a replay never reconnects and a crashed worker's
call is retried on another worker, which opens a session of its own.

With GOOGLE_API_KEY (or GEMINI_API_KEY, or Vertex settings) it uses Gemini;
otherwise an offline model that lists the files, saves the user's message to
notes.txt, reads it back and reports what it says.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncGenerator
from datetime import timedelta
from pathlib import Path

from google.genai import types

from adk import ActivityOptions, Agent
from adk.models import BaseLlm, LlmRequest, LlmResponse
from adk.tools.mcp_tool import McpToolset, StdioConnectionParams
from adk.tools.mcp_tool.mcp_session_manager import StdioServerParameters

files = McpToolset(
    connection_params=StdioConnectionParams(
        server_params=StdioServerParameters(
            command=sys.executable,
            args=[str(Path(__file__).with_name("files_server.py"))],
            env={**os.environ},  # MCP_FILES_ROOT, if set, reaches the server
        ),
        timeout=30,  # seconds to start the server, and for each request's answer
    ),
    tool_filter=["list_files", "read_file", "write_file"],
)
# durable-adk: each call of these tools is an activity with these options
files.activity_options = ActivityOptions(
    start_to_close_timeout=timedelta(minutes=1), maximum_attempts=5
)


class OfflineFilesModel(BaseLlm):
    """Offline stand-in: list, write the user's words to notes.txt, read, report."""

    model: str = "offline-files-model"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        user = next(c for c in llm_request.contents if c.role == "user" and c.parts)
        said = " ".join(p.text or "" for p in user.parts or []).strip()
        last = next((p.function_response for p in llm_request.contents[-1].parts or []), None)
        if last is None:
            part = _call("list_files")
        elif last.name == "list_files":
            part = _call("write_file", name="notes.txt", text=said)
        elif last.name == "write_file":
            part = _call("read_file", name="notes.txt")
        else:
            text = (last.response or {}).get("structuredContent", {}).get("result", "")
            part = types.Part(text=f"notes.txt now says: {text}")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


def _call(tool: str, **args: str) -> types.Part:
    return types.Part.from_function_call(name=tool, args=args)


def _model() -> str | BaseLlm:
    has_key = os.environ.get("GOOGLE_API_KEY") or os.environ.get("GEMINI_API_KEY")
    vertex = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI", "").lower() in ("1", "true")
    return "gemini-2.5-flash" if (has_key or vertex) else OfflineFilesModel()


root_agent = Agent(
    name="files_agent",
    model=_model(),
    description="Keeps text files.",
    instruction="Use the file tools to keep the user's notes in notes.txt.",
    tools=[files],
)
