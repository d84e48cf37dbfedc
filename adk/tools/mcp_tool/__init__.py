"""MCP toolsets: mirrors `google.adk.tools.mcp_tool`.

Runs on: activity side (worker process). Needs the MCP Python SDK (the `mcp`
extra). Without it this package imports, as google.adk's does, but its names
raise an ImportError saying what to install.
"""

from __future__ import annotations

from typing import Any

from ..._unported import unported_attribute

__all__: list[str] = []

try:
    from .mcp_session_manager import (
        SseConnectionParams,
        StdioConnectionParams,
        StreamableHTTPConnectionParams,
    )
    from .mcp_tool import MCPTool, McpTool
    from .mcp_toolset import MCPToolset, McpToolset

    __all__ += [
        "MCPTool",
        "MCPToolset",
        "McpTool",
        "McpToolset",
        "SseConnectionParams",
        "StdioConnectionParams",
        "StreamableHTTPConnectionParams",
    ]
    _MISSING: ImportError | None = None
except ImportError as error:
    _MISSING = error

_NEEDS_SDK = {
    "MCPTool",
    "MCPToolset",
    "McpTool",
    "McpToolset",
    "SseConnectionParams",
    "StdioConnectionParams",
    "StreamableHTTPConnectionParams",
}


def __getattr__(name: str) -> Any:
    if name in _NEEDS_SDK and _MISSING is not None:
        raise ImportError(str(_MISSING), name=name)
    raise unported_attribute(__name__, name)  # e.g. to_mcp_server: NotImplementedError
