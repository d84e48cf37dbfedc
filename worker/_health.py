"""The worker's health endpoint (`python -m worker --health-port N`), for Kubernetes
probes and compose health checks.

Runs on: process side.

A worker serves no traffic, so the endpoint answers two questions, over plain HTTP:

- `GET /livez`: 200 while the process's event loop answers. A wedged loop times the
  probe out and the orchestrator restarts the process. Temporal being down does not
  fail it: a restart would not bring Temporal back.
- `GET /readyz`: 200 once every Temporal worker of the process has started polling
  its task queue (the namespace checked) and Temporal's frontend answers a health
  check; 503 before that ("starting"), while the frontend does not answer ("temporal
  unreachable") and from SIGTERM on ("stopping"), so a rollout waits for new workers
  that can work and a PodDisruptionBudget counts only those.

Each answer is a small JSON object. The frontend is asked at most once per
`CHECK_INTERVAL` seconds whatever the probe rate, so the endpoint stays cheap.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Protocol

import structlog

log = structlog.get_logger("durable_adk.worker")

CHECK_INTERVAL = 2.0
"""Seconds a frontend health check's answer is reused."""

CHECK_TIMEOUT = 2.0
"""Seconds the frontend may take to answer it."""

READ_TIMEOUT = 5.0
"""Seconds a probe may take to send its request."""

MAX_REQUEST = 8192
"""Bytes a request line or header may hold."""

MAX_HEADERS = 100
"""Header lines a request may have."""


class _Polling(Protocol):
    @property
    def is_running(self) -> bool: ...


class Health:
    """What `/readyz` reports: the workers' state, the frontend's, and stopping."""

    def __init__(
        self,
        workers: Sequence[_Polling],
        task_queues: Sequence[str],
        client: Any = None,
    ) -> None:
        self._workers = workers
        self._task_queues = sorted(task_queues)
        self._client = client  # a temporalio Client, or None: no frontend check
        self._stopping = False
        self._checked_at = float("-inf")
        self._frontend: tuple[bool, str] = (False, "")
        self._checking: asyncio.Task[tuple[bool, str]] | None = None

    def stopping(self) -> None:
        """From now on not ready (SIGTERM received)."""
        self._stopping = True

    async def readiness(self) -> tuple[bool, dict[str, Any]]:
        body: dict[str, Any] = {"task_queues": self._task_queues}
        if self._stopping:
            return False, {"status": "stopping", **body}
        if not self._workers or not all(w.is_running for w in self._workers):
            return False, {"status": "starting", **body}
        if self._client is not None:
            up, error = await self._frontend_up()
            if not up:
                return False, {"status": "temporal unreachable", "error": error, **body}
        return True, {"status": "polling", **body}

    async def _frontend_up(self) -> tuple[bool, str]:
        if time.monotonic() - self._checked_at < CHECK_INTERVAL:
            return self._frontend
        if self._checking is None:  # concurrent probes share one check
            self._checking = asyncio.create_task(self._check_frontend())
        checking = self._checking
        try:
            self._frontend = await asyncio.shield(checking)
        finally:
            if self._checking is checking and checking.done():
                self._checking = None
        self._checked_at = time.monotonic()
        return self._frontend

    async def _check_frontend(self) -> tuple[bool, str]:
        try:
            serving = await self._client.service_client.check_health(
                timeout=timedelta(seconds=CHECK_TIMEOUT)
            )
        except Exception as error:  # unreachable, timed out
            return False, f"{type(error).__name__}: {error}"[:300]
        return (True, "") if serving else (False, "the frontend is not serving")


async def start_health_server(health: Health, host: str, port: int) -> asyncio.Server:
    """Listen on host:port (port 0: any free one); OSError when the port is taken."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await _answer(health, reader, writer)
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass  # a probe that hung up or sent garbage gets nothing more
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                pass

    return await asyncio.start_server(handle, host, port, limit=MAX_REQUEST)


async def _answer(
    health: Health, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    request = await asyncio.wait_for(reader.readline(), READ_TIMEOUT)
    # read the headers too: closing a socket with unread input resets the connection,
    # and the probe could lose the answer
    for _ in range(MAX_HEADERS):
        if await asyncio.wait_for(reader.readline(), READ_TIMEOUT) in (b"\r\n", b"\n", b""):
            break
    else:
        raise ValueError("too many header lines")
    parts = request.decode("latin-1").split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        _respond(writer, 400, {"error": "not an HTTP request"}, head=False)
        return
    method, target = parts[0], parts[1].split("?", 1)[0]
    head = method == "HEAD"
    if method not in ("GET", "HEAD"):
        _respond(writer, 405, {"error": "GET or HEAD only"}, head=False)
    elif target == "/livez":
        _respond(writer, 200, {"status": "alive"}, head=head)
    elif target == "/readyz":
        ready, body = await health.readiness()
        _respond(writer, 200 if ready else 503, body, head=head)
    else:
        _respond(writer, 404, {"error": "unknown path: /livez or /readyz"}, head=head)
    await writer.drain()


_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    503: "Service Unavailable",
}


def _respond(
    writer: asyncio.StreamWriter, status: int, body: dict[str, Any], *, head: bool
) -> None:
    payload = (json.dumps(body) + "\n").encode()
    writer.write(
        f"HTTP/1.1 {status} {_REASONS[status]}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n"
        "Connection: close\r\n\r\n".encode()
        + (b"" if head else payload)
    )
