"""One MCP session in a task of its own, and what counts as a lost connection.

Runs on: activity side (worker process). The MCP SDK's sessions use anyio scopes
that must be entered and left by the same task: each session runs start to end
in its own task, and calls on it are raced against that task, so a transport
that dies fails a call at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

from ._sdk import (
    ClientSession,
    McpError,
    httpx,
    read_timeout,
    streamable_http_client,
    types,
)

logger = logging.getLogger(__name__)

_T = TypeVar("_T")
_CLIENT_INFO = types.Implementation(name="durable-adk", version="0.1.0")

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


class Session:
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


class HttpStreams:
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
