"""An MCP server over stdio: list, read and write text files in one folder.

Runs on: its own process, started by the MCP toolset of examples/mcp_files (the
worker runs `python files_server.py`). Written with the `mcp` package's server
side. The folder is $MCP_FILES_ROOT (default: .data/mcp_files); names are plain
file names, never paths.
"""

from __future__ import annotations

import os
from pathlib import Path

try:  # the SDK's 2.x name, then 1.x's
    from mcp.server.mcpserver import MCPServer as FastMCP
except ImportError:  # pragma: no cover
    from mcp.server.fastmcp import FastMCP  # type: ignore[no-redef]

server = FastMCP("files", instructions="Text files in one folder.")


def _root() -> Path:
    root = Path(os.environ.get("MCP_FILES_ROOT", ".data/mcp_files"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def _file(name: str) -> Path:
    if not name or Path(name).name != name or name.startswith("."):
        raise ValueError(f"{name!r} is not a plain file name (no folders, no leading dot)")
    return _root() / name


@server.tool()
def list_files() -> list[str]:
    """Lists the files in the folder, by name."""
    return sorted(p.name for p in _root().iterdir() if p.is_file())


@server.tool()
def read_file(name: str) -> str:
    """Returns a file's text.

    Args:
      name: The file's name, e.g. "notes.txt".
    """
    return _file(name).read_text(encoding="utf-8")


@server.tool()
def write_file(name: str, text: str) -> str:
    """Writes text to a file, replacing what it held.

    Args:
      name: The file's name, e.g. "notes.txt".
      text: The new content.
    """
    _file(name).write_text(text, encoding="utf-8")
    return f"wrote {len(text)} characters to {name}"


if __name__ == "__main__":
    server.run("stdio")
