"""McpToolset's Agent Config YAML: its `args` (McpToolsetConfig) and the switch that
allows stdio servers in configs (google-adk 2.13's).

Runs on: process side (read when an app's YAML config is loaded).
"""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from ...utils.env_utils import is_env_enabled
from ..tool_configs import BaseToolConfig
from ._sdk import StdioServerParameters
from .mcp_session_manager import (
    SseConnectionParams,
    StdioConnectionParams,
    StreamableHTTPConnectionParams,
)

ALLOW_CONFIG_STDIO_SERVERS_ENV_VAR = "ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS"
_allow_config_stdio_servers: bool | None = None


def _set_allow_config_stdio_servers(value: bool | None) -> None:
    """Allow (True) or refuse (False) stdio MCP servers in agent configs; None defers to
    $ADK_ALLOW_CONFIG_STDIO_MCP_SERVERS (google-adk 2.13's switch)."""
    global _allow_config_stdio_servers
    _allow_config_stdio_servers = value


def _allow_config_stdio_servers_enabled() -> bool:
    if _allow_config_stdio_servers is not None:
        return _allow_config_stdio_servers
    return is_env_enabled(ALLOW_CONFIG_STDIO_SERVERS_ENV_VAR)


class McpToolsetConfig(BaseToolConfig):
    """The YAML `args` of an McpToolset: exactly one connection, and its settings."""

    stdio_server_params: StdioServerParameters | None = None
    stdio_connection_params: StdioConnectionParams | None = None
    sse_connection_params: SseConnectionParams | None = None
    streamable_http_connection_params: StreamableHTTPConnectionParams | None = None
    tool_filter: list[str] | None = None
    tool_name_prefix: str | None = None
    tool_list_cache_ttl_seconds: float | None = None
    auth_scheme: Any | None = None
    auth_credential: Any | None = None
    credential_key: str | None = None
    use_mcp_resources: bool = False

    @model_validator(mode="after")
    def _check_only_one_params_field(self) -> McpToolsetConfig:
        given = [
            self.stdio_server_params,
            self.stdio_connection_params,
            self.sse_connection_params,
            self.streamable_http_connection_params,
        ]
        if sum(p is not None for p in given) != 1:
            raise ValueError(
                "Exactly one of stdio_server_params, stdio_connection_params,"
                " sse_connection_params, streamable_http_connection_params must be"
                " set."
            )
        return self
