"""A small MCP server for the tests: notes, over stdio, Streamable HTTP or SSE.

Runs on: its own process, started by the tests (`python server.py`, `python
server.py http <port>` or `python server.py sse <port>`), written with the `mcp`
package's server side. Each tool call appends `<tool> <args as JSON>` to $MCP_NOTES_LOG (if set), so a
test can count how often the server ran a call. The notes live in memory, or in
the JSON file $MCP_NOTES_FILE names (so they outlive a server process). Its
prompts (persona, house_rules, nothing) serve McpInstructionProvider's tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

try:  # the SDK's 2.x name, then 1.x's
    from mcp.server.mcpserver import MCPServer as FastMCP
except ImportError:  # pragma: no cover
    from mcp.server.fastmcp import FastMCP  # type: ignore[no-redef]

server = FastMCP("notes", instructions="Keeps short notes.")
SLOW_SECONDS = float(os.environ.get("MCP_NOTES_SLOW_SECONDS", "1.5"))


def _log(tool: str, **args: object) -> None:
    path = os.environ.get("MCP_NOTES_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{tool} {json.dumps(args, sort_keys=True)}\n")


_MEMORY: dict[str, str] = {}


def _notes() -> dict[str, str]:
    path = os.environ.get("MCP_NOTES_FILE")
    if path is None:
        return _MEMORY
    return json.loads(Path(path).read_text()) if Path(path).exists() else {}


def _save(notes: dict[str, str]) -> None:
    path = os.environ.get("MCP_NOTES_FILE")
    if path is not None:
        Path(path).write_text(json.dumps(notes))


@server.tool()
def add_note(title: str, text: str) -> str:
    """Saves a note under a title, replacing any note of that title.

    Args:
      title: The note's title.
      text: What the note says.
    """
    _log("add_note", title=title, text=text)
    notes = _notes()
    notes[title] = text
    _save(notes)
    return f"saved {title}"


@server.tool()
def list_notes() -> list[str]:
    """Lists the titles of the saved notes."""
    _log("list_notes")
    return sorted(_notes())


@server.tool()
async def slow_count(word: str) -> dict[str, int]:
    """Counts the notes that mention a word (slowly)."""
    _log("slow_count", word=word)
    await asyncio.sleep(SLOW_SECONDS)
    return {"count": sum(word in text for text in _notes().values())}


@server.tool()
def fail(reason: str) -> str:
    """Always fails with the given reason."""
    raise ValueError(reason)


@server.prompt()
def persona(user_name: str, mood: str = "cheerful") -> str:
    """The notes keeper's persona, for a user (prompt arguments from session state)."""
    return f"You keep the notes of {user_name}. Be {mood}."


@server.prompt()
def house_rules() -> list[dict[str, object]]:
    """Several messages, one of them not text (left out of an instruction)."""
    return [
        {"role": "user", "content": {"type": "text", "text": "Keep short notes. "}},
        {"role": "user", "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"}},
        {"role": "assistant", "content": {"type": "text", "text": "Never delete a note."}},
    ]


@server.prompt()
def nothing() -> list[str]:
    """A prompt without messages."""
    return []


if __name__ == "__main__":
    _log("started", pid=os.getpid())
    if sys.argv[1:2] == ["http"]:
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    elif sys.argv[1:2] == ["sse"]:
        server.run("sse", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
