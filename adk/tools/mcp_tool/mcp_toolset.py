"""McpToolset: the tools of an MCP server, listed over a pooled session.

Runs on: activity side (worker process). The model step lists the tools while it
builds the request (once per invocation and worker, 2.13's cache); the listing
is an activity's work, so a workflow replay never connects. A listing that
fails for a lost connection fails the model step's attempt while it has
attempts left (Temporal retries it, reconnecting); on the last attempt the
agent runs without the toolset's tools, as in google-adk 2.13.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import hashlib
import inspect
import json
import logging
import sys
import time
import warnings
from typing import TYPE_CHECKING, Any, TextIO, Union

from ..._unimplemented import not_implemented
from .._transient import TransientToolError, retry_available
from ..base_toolset import BaseToolset, ToolPredicate
from ._config import (
    ALLOW_CONFIG_STDIO_SERVERS_ENV_VAR,
    McpToolsetConfig,
    _allow_config_stdio_servers_enabled,
)
from ._config import _set_allow_config_stdio_servers as _set_allow_config_stdio_servers
from ._sdk import ListToolsResult, StdioServerParameters
from ._sdk import types as mcp_types
from ._session import is_connection_failure
from .mcp_session_manager import (
    MCPSessionManager,
    SseConnectionParams,
    StdioConnectionParams,
    StreamableHTTPConnectionParams,
)
from .mcp_tool import RESERVED_TOOL_NAMES, HeaderProvider, McpTool

if TYPE_CHECKING:
    from ...agents.readonly_context import ReadonlyContext
    from ..base_tool import BaseTool

logger = logging.getLogger(__name__)

_MAX_CACHED_LISTINGS = 64


@dataclasses.dataclass
class _CachedListing:
    tools: list[mcp_types.Tool]
    expires_at: float


class McpToolset(BaseToolset):
    """Connects to an MCP server and offers its tools to an agent.

    ```python
    toolset = McpToolset(
        connection_params=StdioConnectionParams(
            server_params=StdioServerParameters(command="python", args=["server.py"]),
        ),
        tool_filter=["read_file", "list_directory"],
    )
    agent = LlmAgent(name="files", instruction="...", tools=[toolset])
    ```
    """

    def __init__(
        self,
        *,
        connection_params: Union[
            StdioServerParameters,
            StdioConnectionParams,
            SseConnectionParams,
            StreamableHTTPConnectionParams,
        ],
        tool_filter: Union[ToolPredicate, list[str], None] = None,
        tool_name_prefix: str | None = None,
        tool_list_cache_ttl_seconds: float | None = None,
        errlog: TextIO = sys.stderr,
        auth_scheme: Any | None = None,
        auth_credential: Any | None = None,
        require_confirmation: Any = False,
        header_provider: HeaderProvider | None = None,
        progress_callback: Any | None = None,
        use_mcp_resources: bool | None = False,
        sampling_callback: Any | None = None,
        sampling_capabilities: Any | None = None,
        elicitation_callback: Any | None = None,
        credential_key: str | None = None,
        propagate_grounding_metadata: bool = False,
    ) -> None:
        super().__init__(tool_filter=tool_filter, tool_name_prefix=tool_name_prefix)
        for setting, value in (
            ("auth_scheme", auth_scheme),
            ("auth_credential", auth_credential),
            ("credential_key", credential_key),
            ("progress_callback", progress_callback),
            ("use_mcp_resources", use_mcp_resources or None),
            ("sampling_callback", sampling_callback),
            ("sampling_capabilities", sampling_capabilities),
            ("elicitation_callback", elicitation_callback),
            ("propagate_grounding_metadata", propagate_grounding_metadata or None),
        ):
            if value is not None:
                raise not_implemented(f"McpToolset({setting}=...)", "MCP " + setting)
        if not connection_params:
            raise ValueError("Missing connection params in McpToolset.")
        if tool_list_cache_ttl_seconds is not None and tool_list_cache_ttl_seconds <= 0:
            raise ValueError(
                f"tool_list_cache_ttl_seconds must be positive, got {tool_list_cache_ttl_seconds}."
            )
        self._connection_params = connection_params
        self._errlog = errlog
        self._header_provider = header_provider
        self._require_confirmation = require_confirmation
        self._tool_list_cache_ttl_seconds = tool_list_cache_ttl_seconds
        self._tool_list_cache: collections.OrderedDict[str, _CachedListing] = (
            collections.OrderedDict()
        )
        self._mcp_session_manager = MCPSessionManager(connection_params, errlog=errlog)

    @property
    def connection_params(self) -> Any:
        return self._connection_params

    @property
    def require_confirmation(self) -> Any:
        return self._require_confirmation

    @property
    def header_provider(self) -> HeaderProvider | None:
        return self._header_provider

    @property
    def errlog(self) -> TextIO:
        return self._errlog

    @property
    def auth_scheme(self) -> None:
        return None

    @property
    def auth_credential(self) -> None:
        return None

    @property
    def _reads_context(self) -> bool:
        """durable-adk: whether listing or calling reads the session (a header provider,
        a predicate filter, a confirmation predicate)."""
        return bool(
            self._header_provider
            or self._require_confirmation
            or (self.tool_filter and not isinstance(self.tool_filter, list))
        )

    async def _build_headers(self, readonly_context: ReadonlyContext | None) -> dict[str, str]:
        if self._header_provider is None or readonly_context is None:
            return {}
        headers = self._header_provider(readonly_context)
        if inspect.isawaitable(headers):
            headers = await headers
        return dict(headers)

    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        """The server's tools (sorted by name, filtered); `tools/list` on the pooled session."""
        headers = await self._build_headers(readonly_context)
        listed = await self._listing(headers)
        tools: list[BaseTool] = []
        for listed_tool in listed:
            if listed_tool.name in RESERVED_TOOL_NAMES:
                logger.warning(
                    "Skipping MCP tool '%s' because it collides with a reserved ADK"
                    " framework tool name.",
                    listed_tool.name,
                )
                continue
            tool = McpTool(
                mcp_tool=listed_tool,
                mcp_session_manager=self._mcp_session_manager,
                require_confirmation=self._require_confirmation,
                header_provider=self._header_provider,
            )
            if self._is_tool_selected(tool, readonly_context):
                tools.append(tool)
        tools.sort(key=lambda tool: tool.name)
        return tools

    async def _listing(self, headers: dict[str, str]) -> list[mcp_types.Tool]:
        key = _cache_key(headers) if self._tool_list_cache_ttl_seconds is not None else None
        cached = self._tool_list_cache.get(key) if key is not None else None
        if cached is not None and cached.expires_at > time.monotonic():
            self._tool_list_cache.move_to_end(key)  # type: ignore[arg-type]
            return cached.tools
        tools = await self._list(headers or None)
        if key is not None and self._tool_list_cache_ttl_seconds is not None:
            now = time.monotonic()
            for stale in [k for k, v in self._tool_list_cache.items() if v.expires_at <= now]:
                del self._tool_list_cache[stale]
            self._tool_list_cache[key] = _CachedListing(
                list(tools), now + self._tool_list_cache_ttl_seconds
            )
            while len(self._tool_list_cache) > _MAX_CACHED_LISTINGS:
                self._tool_list_cache.popitem(last=False)
        return tools

    async def _list(self, headers: dict[str, str] | None) -> list[mcp_types.Tool]:
        """`tools/list`, tried twice as in google-adk 2.13 (the second time on a new
        session if the first one died); bounded by the connection's timeout."""
        timeout = getattr(self._mcp_session_manager.connection_params, "timeout", None)
        failure: Exception | None = None
        for _ in range(2):
            try:
                result: ListToolsResult = await asyncio.wait_for(
                    self._mcp_session_manager.run(headers, lambda s: s.list_tools()),
                    timeout=timeout,
                )
                return list(result.tools)
            except Exception as error:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                failure = error
                logger.info("Retrying get_tools due to error: %s", error)
        assert failure is not None
        message = f"Failed to get tools from MCP server: {failure}"
        if retry_available.get() and is_connection_failure(failure):
            raise TransientToolError(message) from failure
        raise ConnectionError(message) from failure

    async def close(self) -> None:
        """Close the toolset's MCP sessions (ends a stdio server's process); safe to call
        twice; errors are logged, never raised."""
        self._tool_list_cache.clear()
        try:
            await self._mcp_session_manager.close()
        except Exception as error:
            logger.warning("Error during McpToolset cleanup: %s", error)

    @classmethod
    def from_config(cls, config: Any, config_abs_path: str) -> McpToolset:
        """An McpToolset from an Agent Config YAML entry's `args` (McpToolsetConfig). A
        stdio server there is refused unless allowed (it would run the config's command)."""
        parsed = McpToolsetConfig.model_validate(config.model_dump())
        stdio = parsed.stdio_server_params or parsed.stdio_connection_params
        if stdio and not _allow_config_stdio_servers_enabled():
            raise ValueError(
                "Stdio MCP servers are not allowed in agent configs: the"
                " config-supplied 'command' is launched as a local process when the"
                " agent starts, so an untrusted config would be able to run"
                " arbitrary code. Construct the McpToolset in Python code instead,"
                " use a remote transport (sse_connection_params or"
                " streamable_http_connection_params), or set"
                f" {ALLOW_CONFIG_STDIO_SERVERS_ENV_VAR}=1 if this application only"
                " loads agent configs it trusts."
            )
        connection_params = (
            stdio or parsed.sse_connection_params or parsed.streamable_http_connection_params
        )
        if connection_params is None:  # the config's validator makes this unreachable
            raise ValueError("No connection params found in McpToolsetConfig.")
        return cls(
            connection_params=connection_params,
            tool_filter=parsed.tool_filter,
            tool_name_prefix=parsed.tool_name_prefix,
            tool_list_cache_ttl_seconds=parsed.tool_list_cache_ttl_seconds,
            auth_scheme=parsed.auth_scheme,
            auth_credential=parsed.auth_credential,
            credential_key=parsed.credential_key,
            use_mcp_resources=parsed.use_mcp_resources,
        )


def _cache_key(headers: dict[str, str]) -> str:
    if not headers:
        return "no_headers"
    return hashlib.md5(json.dumps(headers, sort_keys=True).encode()).hexdigest()


class MCPToolset(McpToolset):
    """Deprecated name, use `McpToolset` instead."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            "MCPToolset class is deprecated, use `McpToolset` instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        super().__init__(*args, **kwargs)
