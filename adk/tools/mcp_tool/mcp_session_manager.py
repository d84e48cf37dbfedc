"""MCP connection parameters and the pool of MCP sessions of one toolset.

Runs on: activity side (worker process). A toolset's sessions live in the
worker process: one per event loop and header set, opened on first use, reused
by every later listing and call on that worker, and opened again when the
transport died (a stdio server that exited, a dropped HTTP stream, a server that
forgot the session). `close()` ends them: the worker does it at shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TextIO, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from ._sdk import (
    ClientSession,
    StdioServerParameters,
    create_mcp_http_client,
    httpx,
    sse_client,
    stdio_client,
)
from ._session import HttpStreams, Session, is_connection_failure, is_session_terminated

logger = logging.getLogger(__name__)

__all__ = [
    "MCPSessionManager",
    "SseConnectionParams",
    "StdioConnectionParams",
    "StdioServerParameters",
    "StreamableHTTPConnectionParams",
    "retry_on_errors",
]


@runtime_checkable
class CheckableMcpHttpClientFactory(Protocol):
    """What `httpx_client_factory` accepts (the SDK's factory signature)."""

    def __call__(
        self, headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None
    ) -> Any: ...


class StdioConnectionParams(BaseModel):
    """A local MCP server started as a subprocess, spoken to over stdio.

    `timeout`: seconds for starting and initializing the session, and for each
    request's answer (google-adk 2.13's stdio read timeout)."""

    server_params: StdioServerParameters
    timeout: float = 5.0


class SseConnectionParams(BaseModel):
    """An MCP server over HTTP with Server-Sent Events (the older remote transport).

    `timeout`: seconds to connect and initialize; `sse_read_timeout`: seconds to
    wait for data on the stream (bounds each request)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    url: str
    headers: dict[str, Any] | None = None
    timeout: float = 5.0
    sse_read_timeout: float = 60 * 5.0
    httpx_client_factory: CheckableMcpHttpClientFactory = create_mcp_http_client


class StreamableHTTPConnectionParams(BaseModel):
    """An MCP server over Streamable HTTP.

    `timeout`: seconds to connect and initialize; `sse_read_timeout`: seconds to
    wait for data (bounds each request); `terminate_on_close`: end the server's
    session when the client closes."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    url: str
    headers: dict[str, Any] | None = None
    timeout: float = 5.0
    sse_read_timeout: float = 60 * 5.0
    terminate_on_close: bool = True
    httpx_client_factory: CheckableMcpHttpClientFactory = create_mcp_http_client


ConnectionParams = (
    StdioServerParameters
    | StdioConnectionParams
    | SseConnectionParams
    | StreamableHTTPConnectionParams
)

_T = TypeVar("_T")


def retry_on_errors(func: Callable[..., Awaitable[_T]]) -> Callable[..., Awaitable[_T]]:
    """Run `func` once more when it fails (not when cancelled): a failed session is
    replaced by `create_session` on the second try (google-adk 2.13's decorator)."""

    @functools.wraps(func)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> _T:
        try:
            return await func(self, *args, **kwargs)
        except Exception as error:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            logger.info("Retrying %s due to error: %s", func.__name__, error)
            return await func(self, *args, **kwargs)

    return wrapper


class MCPSessionManager:
    """The sessions of one MCP server: one per event loop and header set."""

    def __init__(self, connection_params: ConnectionParams, errlog: TextIO = sys.stderr) -> None:
        if isinstance(connection_params, StdioServerParameters):
            logger.warning(
                "StdioServerParameters is not recommended. Please use StdioConnectionParams."
            )
            connection_params = StdioConnectionParams(server_params=connection_params, timeout=5)
        self._connection_params: (
            StdioConnectionParams | SseConnectionParams | StreamableHTTPConnectionParams
        ) = connection_params
        self._errlog = errlog
        self._sessions: dict[tuple[asyncio.AbstractEventLoop, str], Session] = {}
        self._locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}

    @property
    def connection_params(self) -> Any:
        return self._connection_params

    def _key(self, headers: dict[str, str] | None) -> str:
        if not headers:
            return "no_headers"
        return hashlib.md5(json.dumps(headers, sort_keys=True).encode()).hexdigest()

    def _client(
        self, headers: dict[str, str] | None
    ) -> contextlib.AbstractAsyncContextManager[Any]:
        params = self._connection_params
        if isinstance(params, StdioConnectionParams):
            return stdio_client(server=params.server_params, errlog=self._errlog)
        merged = {**(params.headers or {}), **(headers or {})} or None
        if isinstance(params, SseConnectionParams):
            return sse_client(  # type: ignore[no-any-return]
                url=params.url,
                headers=merged,
                timeout=params.timeout,
                sse_read_timeout=params.sse_read_timeout,
                httpx_client_factory=params.httpx_client_factory,
            )
        client = params.httpx_client_factory(
            headers=merged, timeout=httpx.Timeout(params.timeout, read=params.sse_read_timeout)
        )
        return HttpStreams(params.url, client, params.terminate_on_close)

    def _request_timeout(self) -> float | None:
        params = self._connection_params
        if isinstance(params, StdioConnectionParams):
            return params.timeout
        return params.sse_read_timeout

    async def create_session(self, headers: dict[str, str] | None = None) -> ClientSession:
        """The live session for these headers on this event loop, opened if there is none
        (or the one there was has died)."""
        return (await self._pooled(headers)).session  # type: ignore[return-value]

    async def _pooled(self, headers: dict[str, str] | None) -> Session:
        loop = asyncio.get_running_loop()
        key = (loop, self._key(headers))
        async with self._locks.setdefault(loop, asyncio.Lock()):
            pooled = self._sessions.get(key)
            if pooled is not None and pooled.alive:
                return pooled
            if pooled is not None:
                del self._sessions[key]
                logger.info("MCP session lost; opening a new one")
                await pooled.close()
            fresh = Session(
                self._client(headers), self._connection_params.timeout, self._request_timeout()
            )
            await fresh.start()
            self._sessions[key] = fresh
            return fresh

    async def run(
        self, headers: dict[str, str] | None, call: Callable[[ClientSession], Awaitable[_T]]
    ) -> _T:
        """`call` on the pooled session; a session the transport or the server ended is
        dropped, so the next use opens a new one."""
        pooled = await self._pooled(headers)
        assert pooled.session is not None
        try:
            return await pooled.guarded(call(pooled.session))
        except Exception as error:
            if not pooled.alive or is_session_terminated(error) or is_connection_failure(error):
                await self._discard(headers, pooled)
            raise

    async def _discard(self, headers: dict[str, str] | None, pooled: Session) -> None:
        key = (asyncio.get_running_loop(), self._key(headers))
        if self._sessions.get(key) is pooled:
            del self._sessions[key]
        await pooled.close()

    async def close(self) -> None:
        """Close every session: those of this event loop here, the others on their own
        loop (a loop that has already stopped took its sessions with it)."""
        current = asyncio.get_running_loop()
        sessions, self._sessions = self._sessions, {}
        for (loop, _), pooled in sessions.items():
            try:
                if loop is current:
                    await pooled.close()
                elif loop.is_running():
                    done = asyncio.run_coroutine_threadsafe(pooled.close(), loop)
                    await asyncio.wrap_future(done)
            except Exception as error:
                logger.warning("Error closing an MCP session: %s", error)


SseServerParams = SseConnectionParams  # google-adk 2.13 keeps the old names as aliases
StreamableHTTPServerParams = StreamableHTTPConnectionParams
