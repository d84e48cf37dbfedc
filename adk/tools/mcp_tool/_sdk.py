"""The MCP Python SDK (`mcp`, 1.x or 2.x), imported in one place.

Runs on: activity side (worker process). The names that moved between the SDK's
majors are resolved here; importing this module without the SDK raises an
ImportError that says which extra to install.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp import types as types
    from mcp.client.sse import sse_client
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client
    from mcp.types import ListToolsResult
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "MCP toolsets need the MCP Python SDK: pip install 'durable-adk[mcp]'"
        f" (or `pip install mcp`). ({error})",
        name=getattr(error, "name", None),
    ) from error

try:
    import httpx2 as httpx  # the SDK's HTTP library from 2.x on
    from mcp.shared.exceptions import MCPError as McpError

    IS_MCP_SDK_V2 = True
except ImportError:  # 1.x
    import httpx  # type: ignore[no-redef]
    from mcp.shared.exceptions import McpError  # type: ignore[no-redef,attr-defined]

    IS_MCP_SDK_V2 = False

__all__ = [
    "IS_MCP_SDK_V2",
    "ClientSession",
    "ListToolsResult",
    "McpError",
    "StdioServerParameters",
    "create_mcp_http_client",
    "dump_model",
    "httpx",
    "read_timeout",
    "sse_client",
    "stdio_client",
    "streamable_http_client",
    "types",
]


def read_timeout(seconds: float | None) -> Any:
    """A per-request timeout as the installed SDK's ClientSession takes it."""
    if seconds is None or IS_MCP_SDK_V2:
        return seconds
    return timedelta(seconds=seconds)


_OPAQUE = frozenset({"_meta", "inputSchema", "outputSchema", "structuredContent"})


def _restore_meta(value: Any) -> Any:
    """`_meta` keys back to `meta` (the one field 2.x's aliased dump moves the other
    way), leaving server-authored data (schemas, structured content) untouched."""
    if isinstance(value, dict):
        return {
            ("meta" if key == "_meta" else key): (item if key in _OPAQUE else _restore_meta(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_restore_meta(item) for item in value]
    return value


def dump_model(model: Any) -> dict[str, Any]:
    """An MCP model as a dict keyed the way google-adk 2.13 gives it to the model
    (1.x's camelCase names, e.g. `isError`, `structuredContent`)."""
    if not IS_MCP_SDK_V2:
        return model.model_dump(exclude_none=True, mode="json")  # type: ignore[no-any-return]
    dumped = model.model_dump(exclude_none=True, mode="json", by_alias=True)
    return _restore_meta(dumped)  # type: ignore[no-any-return]
