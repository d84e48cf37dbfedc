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
    McpError,
    StdioServerParameters,
    create_mcp_http_client,
    httpx,
    read_timeout,
    sse_client,
    stdio_client,
    streamable_http_client,
    types,
)

logger = logging.getLogger(__name__)

__all__ = [
    "MCPSessionManager",
    "SseConnectionParams",
    "StdioConnectionParams",
    "StdioServerParameters",
    "StreamableHTTPConnectionParams",
    "retry_on_errors",
]

_CLIENT_INFO = types.Implementation(name="durable-adk", version="0.1.0")


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


_CONNECTION_CLOSED = -32000
"""The MCP SDK's error code for a call whose connection closed before an answer."""


def is_session_terminated(error: BaseException | None) -> bool:
    """The server says it no longer holds our session (MCP's code 32600 or -32600)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, McpError):
            code = _error_code(error)
            message = getattr(getattr(error, "error", error), "message", None)
            if code == 32600 or (code == -32600 and message == "Session terminated"):
                return True
        error = error.__cause__
    return False


def _error_code(error: BaseException) -> Any:
    """An McpError's JSON-RPC code (1.x: on its ErrorData; 2.x: on the error)."""
    return getattr(getattr(error, "error", error), "code", None)


def _transport_closed(session: Any) -> bool:
    """Whether the session's transport is known to be closed (e.g. a stdio server that
    exited): the SDK's own flags, read where each major keeps them; unknown reads as open
    (a call on it then fails as a connection failure, and the session is replaced)."""
    dispatcher = getattr(session, "_dispatcher", None)
    if dispatcher is not None and hasattr(dispatcher, "_closed"):  # 2.x
        return bool(dispatcher._closed)
    streams = (getattr(session, "_read_stream", None), getattr(session, "_write_stream", None))
    return any(bool(getattr(stream, "_closed", False)) for stream in streams)  # 1.x


def _describe(error: BaseException | None) -> str:
    """An exception's text, an exception group's members joined."""
    if error is None:
        return "None"
    inner = getattr(error, "exceptions", None)
    if inner:
        return " | ".join(_describe(e) for e in inner)
    return str(error) or type(error).__name__


class _Session:
    """One MCP session, run start to end in a task of its own (the SDK's anyio
    scopes must be entered and left by the same task)."""

    def __init__(
        self,
        client: contextlib.AbstractAsyncContextManager[Any],
        timeout: float | None,
        request_timeout: float | None,
    ) -> None:
        self._client = client
        self._timeout = timeout
        self._request_timeout = request_timeout
        self._ready = asyncio.Event()
        self._closing = asyncio.Event()
        self.session: ClientSession | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def alive(self) -> bool:
        return (
            self._task is not None
            and not self._task.done()
            and self.session is not None
            and not _transport_closed(self.session)
        )

    async def start(self) -> ClientSession:
        self._task = asyncio.create_task(self._run())
        self._task.add_done_callback(lambda t: None if t.cancelled() else t.exception())
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=self._timeout)
        except TimeoutError as error:
            await self.close()
            raise ConnectionError(
                f"Failed to create MCP session: timed out after {self._timeout}s waiting for"
                " the session to become ready"
            ) from error
        if self.session is None:
            failure = None if self._task.cancelled() else self._task.exception()
            raise ConnectionError(
                f"Failed to create MCP session: {_describe(failure)}"
            ) from failure
        return self.session

    async def _run(self) -> None:
        try:
            async with contextlib.AsyncExitStack() as stack:
                streams = await stack.enter_async_context(self._client)
                session = await stack.enter_async_context(
                    ClientSession(
                        streams[0],
                        streams[1],
                        read_timeout_seconds=read_timeout(self._request_timeout),
                        client_info=_CLIENT_INFO,
                    )
                )
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._closing.wait()
        finally:
            self._ready.set()

    async def guarded(self, call: Awaitable[_T]) -> _T:
        """`call`, raced against the session's task: a transport that dies mid-call
        fails the call at once instead of leaving it to a read timeout."""
        assert self._task is not None
        running = asyncio.ensure_future(call)
        try:
            await asyncio.wait([running, self._task], return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            running.cancel()
            raise
        if running.done():
            return running.result()
        running.cancel()
        with contextlib.suppress(BaseException):
            await running
        failure = None if self._task.cancelled() else self._task.exception()
        raise ConnectionError(f"MCP session connection lost: {_describe(failure)}") from failure

    async def close(self) -> None:
        self._closing.set()
        if self._task is None:
            return
        if not self._ready.is_set():
            self._task.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout=self._timeout or 5.0)
        except TimeoutError:
            logger.warning("Failed to close MCP session: timed out")
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        except BaseException as error:  # the transport's own failure: it is closed now
            if isinstance(error, asyncio.CancelledError) and not self._task.cancelled():
                raise
            logger.debug("MCP session ended with: %s", _describe(error))


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
        self._sessions: dict[tuple[asyncio.AbstractEventLoop, str], _Session] = {}
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
        return _HttpStreams(params.url, client, params.terminate_on_close)

    def _request_timeout(self) -> float | None:
        params = self._connection_params
        if isinstance(params, StdioConnectionParams):
            return params.timeout
        return params.sse_read_timeout

    async def create_session(self, headers: dict[str, str] | None = None) -> ClientSession:
        """The live session for these headers on this event loop, opened if there is none
        (or the one there was has died)."""
        return (await self._pooled(headers)).session  # type: ignore[return-value]

    async def _pooled(self, headers: dict[str, str] | None) -> _Session:
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
            fresh = _Session(
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

    async def _discard(self, headers: dict[str, str] | None, pooled: _Session) -> None:
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


def is_connection_failure(error: BaseException) -> bool:
    """A failure of the connection rather than an answer from the server: a retry on a
    new session can succeed. (A call cut off mid-way may have run on the server: a
    retry makes it at least once, as any tool's.)"""
    import anyio

    transport = (
        ConnectionError,
        OSError,
        TimeoutError,
        anyio.ClosedResourceError,
        anyio.BrokenResourceError,
        anyio.EndOfStream,
        httpx.TransportError,
    )
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and all(current is not e for e in chain):
        chain.append(current)
        current = current.__cause__
    if any(isinstance(e, (FileNotFoundError, PermissionError)) for e in chain):
        return False  # a stdio command that cannot start: a retry cannot fix it
    for link in chain:
        if isinstance(link, transport) or is_session_terminated(link):
            return True
        if isinstance(link, McpError) and _error_code(link) == _CONNECTION_CLOSED:
            return True
        if isinstance(link, BaseExceptionGroup):
            return any(is_connection_failure(e) for e in link.exceptions)
    return False


class _HttpStreams:
    """streamable_http_client over an HTTP client it owns (opened and closed with it)."""

    def __init__(self, url: str, client: Any, terminate_on_close: bool) -> None:
        self._client = client
        self._streams = streamable_http_client(
            url, http_client=client, terminate_on_close=terminate_on_close
        )

    async def __aenter__(self) -> Any:
        await self._client.__aenter__()
        try:
            return await self._streams.__aenter__()
        except BaseException as error:
            await self._client.__aexit__(type(error), error, error.__traceback__)
            raise

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self._streams.__aexit__(*exc)
        finally:
            await self._client.__aexit__(*exc)
